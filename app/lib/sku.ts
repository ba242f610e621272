/** The SKU rules the form (browser and server) and the model share (docs/decisions/054). */

/** The longest SKU the shop takes (Google Merchant Center's id limit is 50). */
export const MAX_SKU_LENGTH = 50;
/** Letters, digits and . _ - / : what carriers, feeds and spreadsheets keep as typed. */
export const SKU_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;
