import type en from "../en/admin-categories";

export default {} satisfies typeof en;
