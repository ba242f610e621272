import type en from "../en/admin-product-form";

export default {} satisfies typeof en;
