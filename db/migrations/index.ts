import type { Migration } from "kysely/migration";
import * as m0001 from "./0001-initial";
import * as m0002 from "./0002-account-tokens";
import * as m0003 from "./0003-catalogue-search";
import * as m0004 from "./0004-order-submission-key";
import * as m0005 from "./0005-page-view-rollup";
import * as m0006 from "./0006-customer-admin";
import * as m0007 from "./0007-admin-indexes";
import * as m0008 from "./0008-price-sort-indexes";
import * as m0009 from "./0009-owner-controls";
import * as m0010 from "./0010-rate-limit-hits";
import * as m0011 from "./0011-page-cache-version";
import * as m0012 from "./0012-payment-deadlines";
import * as m0013 from "./0013-staff-and-colour-images";
import * as m0014 from "./0014-outbox";
import * as m0015 from "./0015-webhooks";
import * as m0017 from "./0017-outbox-admin-indexes";
import * as m0018 from "./0018-shipping-zones";
import * as m0019 from "./0019-discount-codes";
import * as m0020 from "./0020-age-and-restricted-items";
import * as m0024 from "./0024-sale-prices";
import * as m0025 from "./0025-brands";
import * as m0026 from "./0026-variant-options";
import * as m0027 from "./0027-stock-alerts";
import * as m0028 from "./0028-product-identifiers";
import * as m0029 from "./0029-refunds";
import * as m0030 from "./0030-order-notes";
import * as m0031 from "./0031-order-carrier";
import * as m0032 from "./0032-visitor-version";

/**
 * Every migration, registered explicitly so they run from the bundled server build.
 * Add new ones at the end with the next number; never edit one that has shipped.
 */
export const migrations: Record<string, Migration> = {
  "0001-initial": m0001,
  "0002-account-tokens": m0002,
  "0003-catalogue-search": m0003,
  "0004-order-submission-key": m0004,
  "0005-page-view-rollup": m0005,
  "0006-customer-admin": m0006,
  "0007-admin-indexes": m0007,
  "0008-price-sort-indexes": m0008,
  "0009-owner-controls": m0009,
  "0010-rate-limit-hits": m0010,
  "0011-page-cache-version": m0011,
  "0012-payment-deadlines": m0012,
  "0013-staff-and-colour-images": m0013,
  "0014-outbox": m0014,
  "0015-webhooks": m0015,
  "0017-outbox-admin-indexes": m0017,
  "0018-shipping-zones": m0018,
  "0019-discount-codes": m0019,
  "0020-age-and-restricted-items": m0020,
  "0024-sale-prices": m0024,
  "0025-brands": m0025,
  "0026-variant-options": m0026,
  "0027-stock-alerts": m0027,
  "0028-product-identifiers": m0028,
  "0029-refunds": m0029,
  "0030-order-notes": m0030,
  "0031-order-carrier": m0031,
  "0032-visitor-version": m0032,
};
