import type en from "../en/admin-products";

export default {} satisfies typeof en;
