/** English text of Settings → Shopping feeds; zh/admin-feeds.ts has the same keys. */
export default {
  title: "Shopping feeds",
  back: "Back to Settings",
  intro:
    "A product feed lists every product shoppers can see, one entry per variant (colour and size), with its price, sale price, stock, images, GTIN/MPN and shipping fees, for Google Merchant Center (free listings and Shopping ads). Turn on a feed for each language and currency you sell in, then add its address in Merchant Center as a scheduled fetch.",
  choose: "Feeds to publish",
  chooseHint: "A feed that is off answers “not found”. Prices are those your product pages show in that currency.",
  language: "Language",
  languages: { en: "English", zh: "Chinese" },
  feedLabel: "{{language}} feed in {{currency}}",
  save: "Save",
  saved: "Shopping feeds saved",
  urlsHeading: "Addresses to paste into Merchant Center",
  none: "No feed is on.",
  summaryIntro: "Product feeds for Google Merchant Center, per language and currency.",
  manage: "Choose feeds",
};
