import type en from "../en/admin-settings";

export default {
  title: "設定",
} satisfies typeof en;
