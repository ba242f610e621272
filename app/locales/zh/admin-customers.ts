import type en from "../en/admin-customers";

export default {
  title: "客戶管理",
} satisfies typeof en;
