import type en from "../en/admin-blog";

export default {
  title: "網誌文章",
} satisfies typeof en;
