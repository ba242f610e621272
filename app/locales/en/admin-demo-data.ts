/** English text of the demo banner and "Remove demo data" (/admin/demo-data); zh/admin-demo-data.ts has the same keys. */
export default {
  banner: "Demo bank account — shoppers are told to pay into it",
  bannerDemoMode:
    "The shop runs in demo mode, so the payment page shows this account, marked as a demo. Add your own account and make it primary before real shoppers come.",
  bannerLive:
    "The shop is live (demo mode off): the payment page refuses orders until you add your own account and make it primary.",
  bankAccounts: "Bank accounts",
  remove: "Remove demo data",
  title: "Remove demo data",
  intro:
    "The demo catalogue, blog posts, bank account, hero image and home page texts the shop was set up with. Removing them cannot be undone. Orders are never touched: their lines keep the names, colours and prices they were placed with.",
  whatHeading: "What will be removed",
  products: "Demo products (with their colours, images and cart lines)",
  texts: "Demo texts on the home page and in the footer",
  textsNote:
    "The demo's home headline, subtitle and footer text are emptied: the home page then shows the shop's name as its headline. Texts you changed in Shop details stay.",
  editedHeading_one: "{{count}} demo product you have edited",
  editedHeading_other: "{{count}} demo products you have edited",
  editedIntro:
    "You changed these since the shop was set up. Ticked ones stay as your own products (no longer demo data, with their colours, images and stock); untick one to remove it with the demo.",
  keepProduct: "Keep {{name}}",
  lastEdited: "Last edited {{date}}",
  categories: "Demo categories",
  blogPosts: "Demo blog posts",
  bankAccount: "Demo bank account",
  heroImage: "Demo hero image on the home page",
  heroYes: "Yes",
  heroNo: "No",
  heroNote: "The home page goes back to the default hero image.",
  kept: "These demo categories hold products of yours (or edited demo products you keep), so they stay (no longer marked as demo): {{names}}",
  noAccountLeft:
    "The demo account is the shop's only bank account: after this, shoppers cannot pay until you add yours under Settings.",
  nothing: "There is no demo data left to remove.",
  confirm: "Remove demo data now",
  confirmHeading: "Remove all of the above?",
  cancel: "Cancel",
  settingsHeading: "Demo data",
  settingsText: "The demo catalogue, blog posts, bank account and hero image that came with the shop.",
  settingsLink: "Review and remove demo data",
  removed: "Demo data removed",
  removedDetail:
    "Removed: products {{products}} · categories {{categories}} · blog posts {{blogPosts}} · bank accounts {{bankAccounts}}.",
  removedDetailKept:
    "Removed: products {{products}} · categories {{categories}} · blog posts {{blogPosts}} · bank accounts {{bankAccounts}}. Kept as your own: {{kept}} edited products.",
  nothingRemoved: "There was no demo data left to remove",
  badRequest: 'Press "Remove demo data now" to remove the demo data.',
};
