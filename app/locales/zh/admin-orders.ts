import type en from "../en/admin-orders";

export default {
  title: "訂單管理",
} satisfies typeof en;
