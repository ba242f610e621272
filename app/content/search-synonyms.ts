/**
 * The search synonyms a shop starts with: the words Hong Kong shoppers use for the same airsoft
 * gear, in Traditional Chinese and English (a few Taiwanese words too, as shoppers search with
 * them). The owner edits them under Settings → Search synonyms (stored in site_settings,
 * app/models/settings/search-synonyms.server.ts); until then these apply.
 *
 * Search finds a word anywhere in a name ("rifle" finds "Sniper Rifle" and the Rifles category),
 * so a group lists the words a shopper types whole, plurals included where shoppers type them.
 */
export const DEFAULT_SEARCH_SYNONYMS: readonly (readonly string[])[] = [
  ["長槍", "步槍", "rifle", "rifles"],
  ["電槍", "電動槍", "AEG"],
  ["GBB", "氣動回膛", "瓦斯槍", "gas blowback"],
  ["手槍", "pistol", "pistols", "handgun"],
  ["霰彈槍", "散彈槍", "shotgun", "shotguns"],
  ["狙擊槍", "狙擊", "sniper"],
  ["衝鋒槍", "SMG", "submachine gun"],
  ["護目鏡", "goggles", "eyewear", "eye protection"],
  ["射擊眼鏡", "shooting glasses"],
  ["面罩", "mask", "face mask"],
  ["戰術背心", "背心", "vest", "plate carrier"],
  ["頭盔", "helmet"],
  ["手套", "gloves"],
  ["瞄準鏡", "瞄鏡", "scope"],
  ["紅點鏡", "紅點", "red dot"],
  ["彈匣", "彈夾", "magazine", "magazines"],
  ["BB彈", "BB 彈", "膠彈", "BBs"],
  ["電池", "鋰電", "battery", "batteries"],
  ["槍套", "holster", "holsters"],
  ["電筒", "手電筒", "槍燈", "flashlight", "torch", "weapon light"],
  ["滅聲器", "消音器", "suppressor", "silencer"],
  ["背囊", "背包", "backpack"],
];
