/**
 * The demo catalogue: pure data (plus two tiny formatting helpers), no application imports.
 * Money is integer cents; HKD is the shop's own price, the other currencies are priced by the
 * shop from it (HKD / 10 for GBP, / 8.5 for EUR, / 7.8 for USD, rounded to a .99 price point).
 */

/** Kinds of artwork `demo/artwork.server.ts` knows how to draw. */
export const ART_KINDS = [
  "carbine-cqb",
  "carbine-entry",
  "carbine-gbb",
  "carbine-spring",
  "ak",
  "bullpup",
  "sniper",
  "dmr",
  "smg",
  "pistol-polymer",
  "pistol-1911",
  "pistol-compact",
  "pistol-target",
  "pistol-auto",
  "pistol-race",
  "pistol-spring",
  "pistol-electric",
  "revolver",
  "shotgun-pump",
  "shotgun-tactical",
  "shotgun-breacher",
  "shotgun-gas",
  "shotgun-double",
  "scope",
  "scope-long",
  "red-dot",
  "magazine-rifle",
  "magazine-pistol",
  "bb-bottle",
  "bb-bag",
  "battery",
  "sling",
  "foregrip",
  "suppressor",
  "bipod",
  "plate-carrier",
  "plate-carrier-pro",
  "chest-rig",
  "helmet",
  "face-mask",
  "gloves",
  "pouch",
  "belt",
  "knee-pads",
  "rifle-bag",
  "hard-case",
  "backpack",
  "holster",
  "flashlight",
  "goggles",
  "glasses",
  "combat-shirt",
  "cap",
] as const;
export type ArtKind = (typeof ART_KINDS)[number];

export const CATEGORY_SLUGS = [
  "rifles",
  "pistols",
  "shotguns",
  "accessories",
  "tactical-gear",
  "new-arrivals",
  "bags-cases",
  "holsters-flashlight",
  "eyewear",
  "tactical-apparel",
] as const;
export type CategorySlug = (typeof CATEGORY_SLUGS)[number];

export interface SeedCategory {
  slug: CategorySlug;
  name_en: string;
  name_zh: string;
  description_en: string;
  description_zh: string;
  is_active: 0 | 1;
  sort_order: number;
}

export interface SeedPrices {
  price_hkd_cents: number;
  price_gbp_cents: number;
  price_eur_cents: number;
  price_usd_cents: number;
}

export interface SeedVariant {
  color: string;
  stock: number;
}

/** The Chinese names of the demo colours (shown on Chinese pages, in the cart and in e-mails). */
export const SEED_COLOUR_ZH: Record<string, string> = {
  Black: "黑色",
  Tan: "沙色",
  "Olive Drab": "橄欖綠",
  Grey: "灰色",
  "Coyote Brown": "狼棕色",
  "Multi-Terrain Camo": "多地形迷彩",
  "Ranger Green": "遊騎兵綠",
};

export interface SeedProduct extends SeedPrices {
  category: CategorySlug;
  name_en: string;
  name_zh: string;
  description_en: string;
  description_zh: string;
  is_featured: 0 | 1;
  variants: SeedVariant[];
  /** Number of gallery images, 1..5. */
  images: number;
  art: ArtKind;
  /** How long ago the product was added, 0..120 days. */
  daysAgo: number;
}

export interface SeedBlogPost {
  title_en: string;
  title_zh: string;
  content_en: string;
  content_zh: string;
  author: string;
  published: 0 | 1;
  daysAgo: number;
  /** Which generated illustration the post gets, if any. */
  image: "loadout" | "platforms" | null;
}

export interface SeedBankAccount {
  bank_name: string;
  account_holder: string;
  account_number: string;
  fps_id: string;
  swift_code: string;
  routing_number: string | null;
  bank_address: string;
  is_primary: 1;
}

/** The four shop prices from a whole-dollar HKD price: e.g. 1880 -> HK$1,880.00, £187.99, €220.99, US$240.99. */
export function pricesFromHkd(hkd: number): SeedPrices {
  const point = (value: number) => Math.max(1, Math.round(value)) * 100 - 1;
  return {
    price_hkd_cents: hkd * 100,
    price_gbp_cents: point(hkd / 10),
    price_eur_cents: point(hkd / 8.5),
    price_usd_cents: point(hkd / 7.8),
  };
}

/** Colour list shorthand: v(["Black", 12], ["Tan", 0]). */
function v(...pairs: [string, number][]): SeedVariant[] {
  return pairs.map(([color, stock]) => ({ color, stock }));
}

export const SEED_CATEGORIES: SeedCategory[] = [
  {
    slug: "rifles",
    name_en: "Rifles",
    name_zh: "長槍",
    description_en:
      "AEG, gas blowback and spring rifles, from short CQB carbines to bolt-action snipers, all under 2 joules.",
    description_zh: "由短身 CQB 卡賓槍到手拉狙擊槍，電動、氣動及彈簧長槍一應俱全，全部符合香港 2 焦耳上限。",
    is_active: 1,
    sort_order: 1,
  },
  {
    slug: "pistols",
    name_en: "Pistols",
    name_zh: "手槍",
    description_en:
      "Gas blowback, non-blowback and spring sidearms for skirmish back-ups, target practice and collectors.",
    description_zh: "氣動回膛、非回膛及彈簧手槍，無論作副武器、練靶定收藏都啱用。",
    is_active: 1,
    sort_order: 2,
  },
  {
    slug: "shotguns",
    name_en: "Shotguns",
    name_zh: "霰彈槍",
    description_en: "Pump-action spring and gas shotguns firing single or three-BB patterns for close-quarters games.",
    description_zh: "彈簧及氣動泵動式霰彈槍，單發或三發 BB 齊射，室內近距離對戰首選。",
    is_active: 1,
    sort_order: 3,
  },
  {
    slug: "accessories",
    name_en: "Accessories",
    name_zh: "配件",
    description_en: "Optics, magazines, batteries, BBs and mounts to keep your loadout running all day.",
    description_zh: "瞄準鏡、彈匣、電池、BB 彈及各式魚骨配件，令你嘅裝備全日保持最佳狀態。",
    is_active: 1,
    sort_order: 4,
  },
  {
    slug: "tactical-gear",
    name_en: "Tactical Gear",
    name_zh: "戰術裝備",
    description_en:
      "Plate carriers, helmets, chest rigs, pouches and gloves built for long field days in Hong Kong heat.",
    description_zh: "戰術背心、頭盔、胸掛、彈匣包及手套，專為香港炎熱天氣下嘅長時間野戰而設。",
    is_active: 1,
    sort_order: 5,
  },
  {
    slug: "new-arrivals",
    name_en: "New Arrivals",
    name_zh: "新品上架",
    description_en: "The latest guns and gear to land in our Hong Kong warehouse, updated every week.",
    description_zh: "每星期更新，率先睇到剛抵達香港倉嘅最新槍械及裝備。",
    is_active: 0,
    sort_order: 6,
  },
  {
    slug: "bags-cases",
    name_en: "Bags & Cases",
    name_zh: "槍袋及槍箱",
    description_en: "Padded rifle bags, hard cases and daypacks so your replicas always travel covered and discreet.",
    description_zh: "加厚槍袋、硬殼槍箱及背囊，出入戰場時槍械全程妥善收藏，低調又安心。",
    is_active: 0,
    sort_order: 7,
  },
  {
    slug: "holsters-flashlight",
    name_en: "Holsters & Flashlight",
    name_zh: "槍套及電筒",
    description_en: "Retention holsters and weapon lights for pistols and rifles, ready for night games and CQB.",
    description_zh: "手槍鎖扣槍套及槍燈電筒，夜戰及 CQB 場地必備。",
    is_active: 0,
    sort_order: 8,
  },
  {
    slug: "eyewear",
    name_en: "Eyewear",
    name_zh: "護目鏡",
    description_en:
      "Impact-rated goggles and shooting glasses, because eye protection is non-negotiable on every field.",
    description_zh: "通過防撞測試嘅護目鏡及射擊眼鏡，任何場地都必須配戴。",
    is_active: 0,
    sort_order: 9,
  },
  {
    slug: "tactical-apparel",
    name_en: "Tactical Apparel",
    name_zh: "戰術服裝",
    description_en: "Combat shirts, caps and field wear in breathable fabrics suited to subtropical summers.",
    description_zh: "戰術衫、帽及野戰服裝，採用透氣物料，適合亞熱帶夏天穿著。",
    is_active: 0,
    sort_order: 10,
  },
];

interface ProductSource {
  category: CategorySlug;
  en: string;
  zh: string;
  hkd: number;
  featured?: boolean;
  variants: SeedVariant[];
  images: number;
  art: ArtKind;
  daysAgo: number;
  /** Description sentences, joined with a space (English) or nothing (Chinese). */
  descEn: string[];
  descZh: string[];
}

const PRODUCT_SOURCES: ProductSource[] = [
  // Rifles
  {
    category: "rifles",
    en: "M4 CQB Carbine AEG",
    zh: "M4 CQB 短卡賓電動槍",
    hkd: 1880,
    featured: true,
    variants: v(["Black", 12], ["Tan", 6], ["Olive Drab", 0]),
    images: 5,
    art: "carbine-cqb",
    daysAgo: 2,
    descEn: [
      "A compact metal-bodied AEG with a 10-inch modular rail handguard and a crisp MOSFET trigger response.",
      "Shoots around 350 FPS with 0.20 g BBs, comfortably under Hong Kong's 2-joule muzzle-energy limit.",
      "Ideal for indoor CQB sites in Kwun Tong and Tsuen Wan.",
    ],
    descZh: [
      "全金屬槍身短卡賓電動槍，配 10 吋模組化護木及 MOSFET 電子扳機，反應爽脆。",
      "使用 0.20 克 BB 彈初速約 350 FPS，遠低於香港法例 2 焦耳槍口動能上限。",
      "最啱觀塘、荃灣一帶嘅室內 CQB 場。",
    ],
  },
  {
    category: "rifles",
    en: "M-Series Carbine AEG Entry Edition",
    zh: "M 系列卡賓電動槍入門版",
    hkd: 1280,
    variants: v(["Black", 18], ["Tan", 9]),
    images: 3,
    art: "carbine-entry",
    daysAgo: 64,
    descEn: [
      "Our best-selling first rifle: reinforced nylon-fibre body, metal gearbox and an adjustable six-position stock.",
      "Factory tuned to roughly 330 FPS with 0.20 g BBs and supplied with a 300-round hi-cap magazine.",
    ],
    descZh: [
      "最受新手歡迎嘅第一支長槍：強化尼龍纖維槍身、金屬波箱及六段伸縮槍托。",
      "出廠初速約 330 FPS（0.20 克 BB），附送 300 發彈匣，符合香港 2 焦耳規定。",
    ],
  },
  {
    category: "rifles",
    en: "Gas Blowback Carbine GBB",
    zh: "氣動回膛卡賓槍 GBB",
    hkd: 3880,
    variants: v(["Black", 2], ["Grey", 1]),
    images: 4,
    art: "carbine-gbb",
    daysAgo: 11,
    descEn: [
      "Real-steel feel with a heavy bolt carrier that kicks on every shot, CNC aluminium receivers and a steel bolt.",
      "Runs on green gas at about 360 FPS, kept below Hong Kong's 2-joule limit.",
      "Comes with one 30-round gas magazine.",
    ],
    descZh: [
      "CNC 鋁合金機匣配鋼製槍機，每發都有紮實後座力，手感接近真槍。",
      "使用綠氣，初速約 360 FPS，符合香港 2 焦耳上限。",
      "附送 30 發氣匣一個。",
    ],
  },
  {
    category: "rifles",
    en: "Starter Spring Carbine",
    zh: "入門彈簧卡賓槍",
    hkd: 368,
    variants: v(["Black", 25], ["Tan", 14]),
    images: 2,
    art: "carbine-spring",
    daysAgo: 95,
    descEn: [
      "A lightweight bolt-cocked spring carbine in tough ABS, perfect for backyard targets and younger players.",
      "Around 250 FPS with 0.20 g BBs, no batteries or gas needed.",
    ],
    descZh: [
      "輕巧耐用 ABS 彈簧卡賓槍，每發手動上膛，啱晒後花園練靶及初學者。",
      "0.20 克 BB 初速約 250 FPS，毋須電池或氣體。",
    ],
  },
  {
    category: "rifles",
    en: "AK Classic Stamped-Steel AEG",
    zh: "AK 經典沖壓鋼電動槍",
    hkd: 2280,
    variants: v(["Black", 7], ["Coyote Brown", 3]),
    images: 4,
    art: "ak",
    daysAgo: 38,
    descEn: [
      "Stamped-steel receiver, polymer furniture and a smooth version-3 gearbox for a rugged, classic profile.",
      "Delivers about 370 FPS with 0.20 g BBs, within Hong Kong's 2-joule muzzle-energy rule.",
    ],
    descZh: [
      "沖壓鋼機匣配聚合物槍身部件及順滑三代波箱，外型經典硬朗。",
      "0.20 克 BB 初速約 370 FPS，符合香港 2 焦耳槍口動能規定。",
    ],
  },
  {
    category: "rifles",
    en: "Compact Bullpup AEG",
    zh: "短身無托電動槍",
    hkd: 2480,
    variants: v(["Black", 4], ["Olive Drab", 6]),
    images: 3,
    art: "bullpup",
    daysAgo: 5,
    descEn: [
      "A full-length inner barrel in a short bullpup body, so you get rifle range at SMG size.",
      "Shoots about 360 FPS, ambidextrous controls, quick-change spring system.",
    ],
    descZh: [
      "無托設計，喺細小槍身內保留長內管，兼具長槍射程與衝鋒槍嘅靈活。",
      "初速約 360 FPS，左右手通用，快拆彈簧設計。",
    ],
  },
  {
    category: "rifles",
    en: "Longshot Bolt-Action Sniper Rifle",
    zh: "長程手拉狙擊槍",
    hkd: 2680,
    featured: true,
    variants: v(["Black", 3], ["Olive Drab", 2], ["Tan", 0]),
    images: 5,
    art: "sniper",
    daysAgo: 9,
    descEn: [
      "A spring-powered bolt-action rifle with a fluted outer barrel, adjustable hop-up and a thumbhole stock.",
      "Tuned to about 430 FPS with 0.20 g BBs, right under the 2-joule line set by Hong Kong law.",
      "Scope shown is sold separately.",
    ],
    descZh: [
      "彈簧手拉狙擊槍，配坑紋外管、可調 Hop-up 及拇指孔槍托。",
      "0.20 克 BB 初速約 430 FPS，剛好低於香港法例 2 焦耳上限。",
      "圖中瞄準鏡需另購。",
    ],
  },
  {
    category: "rifles",
    en: "Marksman DMR AEG 20-inch",
    zh: "精準射手步槍 DMR 電動槍 20 吋",
    hkd: 3280,
    variants: v(["Black", 0], ["Tan", 0]),
    images: 3,
    art: "dmr",
    daysAgo: 72,
    descEn: [
      "A long-barrel AEG with a fixed precision stock, semi-auto lock and a tight-bore inner barrel for accuracy.",
      "About 400 FPS with 0.20 g BBs, still inside Hong Kong's 2-joule limit.",
    ],
    descZh: [
      "長槍管精準射手電動槍，固定式精準槍托、半自動鎖定及精密內管。",
      "0.20 克 BB 初速約 400 FPS，仍符合香港 2 焦耳上限。",
    ],
  },
  {
    category: "rifles",
    en: "Compact Submachine Gun AEG",
    zh: "緊湊型衝鋒槍電動槍",
    hkd: 1580,
    variants: v(["Black", 10]),
    images: 3,
    art: "smg",
    daysAgo: 27,
    descEn: [
      "A folding-stock SMG with a vertical foregrip and a top rail for red dots, built in reinforced polymer.",
      "Around 320 FPS, light enough for long CQB sessions.",
    ],
    descZh: [
      "摺疊槍托衝鋒槍，附垂直前握把及上魚骨，可裝紅點鏡，強化聚合物槍身。",
      "初速約 320 FPS，輕巧適合長時間 CQB。",
    ],
  },
  // Pistols
  {
    category: "pistols",
    en: "G-Series Gas Blowback Pistol",
    zh: "G 系列氣動回膛手槍",
    hkd: 1080,
    featured: true,
    variants: v(["Black", 20], ["Tan", 8], ["Olive Drab", 4]),
    images: 4,
    art: "pistol-polymer",
    daysAgo: 1,
    descEn: [
      "A polymer-frame gas blowback pistol with a metal slide, crisp trigger and adjustable hop-up.",
      "Around 300 FPS on green gas, well within Hong Kong's 2-joule muzzle-energy limit.",
      "Includes one 25-round magazine.",
    ],
    descZh: [
      "聚合物槍身配金屬滑套嘅 GBB 手槍，扳機爽脆，Hop-up 可調。",
      "使用綠氣初速約 300 FPS，完全符合香港 2 焦耳上限。",
      "附 25 發彈匣一個。",
    ],
  },
  {
    category: "pistols",
    en: "Classic 1911-Pattern GBB Pistol",
    zh: "經典 1911 型氣動回膛手槍",
    hkd: 1380,
    variants: v(["Black", 6], ["Grey", 3]),
    images: 3,
    art: "pistol-1911",
    daysAgo: 48,
    descEn: [
      "A full-metal single-stack classic with a working grip safety, skeleton hammer and textured grip panels.",
      "Strong blowback at about 310 FPS on green gas.",
    ],
    descZh: ["全金屬單排經典手槍，握把保險可動，鏤空擊鎚配防滑握片。", "綠氣初速約 310 FPS，回膛勁度十足。"],
  },
  {
    category: "pistols",
    en: "Compact Carry GBB Pistol",
    zh: "短身隨身型氣動回膛手槍",
    hkd: 880,
    variants: v(["Black", 0], ["Tan", 0]),
    images: 2,
    art: "pistol-compact",
    daysAgo: 83,
    descEn: [
      "A short-slide compact with a lightweight polymer frame, ideal as a back-up sidearm.",
      "About 280 FPS, with a 20-round magazine that fits small pouches.",
    ],
    descZh: ["短滑套緊湊型手槍，聚合物槍身輕巧，最啱做後備副武器。", "初速約 280 FPS，20 發彈匣可放入細彈匣包。"],
  },
  {
    category: "pistols",
    en: "Six-Inch CO2 Revolver",
    zh: "六吋 CO2 左輪手槍",
    hkd: 1280,
    variants: v(["Black", 4], ["Grey", 2]),
    images: 3,
    art: "revolver",
    daysAgo: 57,
    descEn: [
      "A full-metal revolver with six individual shells and a swing-out cylinder for a satisfying reload.",
      "Powered by 12 g CO2 at about 330 FPS, kept under Hong Kong's 2-joule limit.",
    ],
    descZh: [
      "全金屬左輪手槍，六發獨立彈殼配側擺彈巢，裝彈手感一流。",
      "使用 12 克 CO2，初速約 330 FPS，符合香港 2 焦耳上限。",
    ],
  },
  {
    category: "pistols",
    en: "Spring Pistol Training Twin Pack",
    zh: "彈簧練習手槍孖裝",
    hkd: 128,
    variants: v(["Default", 40]),
    images: 1,
    art: "pistol-spring",
    daysAgo: 110,
    descEn: [
      "Two lightweight spring pistols for holster drills and plinking, cocked by hand before every shot.",
      "Around 200 FPS, no gas or batteries needed.",
    ],
    descZh: ["兩支輕巧彈簧手槍，每發手動上膛，適合練拔槍及玩射罐。", "初速約 200 FPS，毋須氣體或電池。"],
  },
  {
    category: "pistols",
    en: "Target-Line NBB Gas Pistol",
    zh: "標靶型非回膛氣動手槍",
    hkd: 498,
    variants: v(["Black", 15]),
    images: 2,
    art: "pistol-target",
    daysAgo: 69,
    descEn: [
      "A non-blowback gas pistol with a long sight radius, so more gas goes into each shot and accuracy stays steady.",
      "About 290 FPS and very gas efficient.",
    ],
    descZh: ["非回膛氣動手槍，瞄準基線長，每發用氣更集中，準繩度穩定。", "初速約 290 FPS，非常慳氣。"],
  },
  {
    category: "pistols",
    en: "Select-Fire Machine Pistol GBB",
    zh: "可切換全自動氣動回膛手槍",
    hkd: 1680,
    variants: v(["Black", 3]),
    images: 3,
    art: "pistol-auto",
    daysAgo: 20,
    descEn: [
      "A full-auto capable gas blowback pistol with an extended 50-round magazine and a steel outer barrel.",
      "About 300 FPS on green gas; select-fire switch on the slide.",
    ],
    descZh: ["可全自動射擊嘅 GBB 手槍，配 50 發加長彈匣及鋼製外管。", "綠氣初速約 300 FPS，滑套設單發/連發切換。"],
  },
  {
    category: "pistols",
    en: "Competition Race Gun GBB 5.1",
    zh: "競技型氣動回膛手槍 5.1",
    hkd: 1980,
    variants: v(["Grey", 2], ["Black", 1], ["Tan", 0]),
    images: 4,
    art: "pistol-race",
    daysAgo: 14,
    descEn: [
      "A double-stack race pistol with a compensator, slide-mounted red dot and flared magwell for fast reloads.",
      "Tuned to about 320 FPS for speed-shooting matches under Hong Kong's 2-joule limit.",
    ],
    descZh: [
      "雙排競技手槍，配槍口制退器、滑套紅點鏡及擴大彈匣井，換彈更快。",
      "初速約 320 FPS，適合速射比賽，符合香港 2 焦耳上限。",
    ],
  },
  {
    category: "pistols",
    en: "Electric Compact Pistol AEP",
    zh: "電動緊湊型手槍 AEP",
    hkd: 658,
    variants: v(["Black", 9]),
    images: 2,
    art: "pistol-electric",
    daysAgo: 41,
    descEn: [
      "A battery-powered pistol that works in any weather, unlike gas in cold winter mornings.",
      "About 260 FPS semi and full auto, charger included.",
    ],
    descZh: ["電池驅動手槍，唔似氣槍咁受天氣影響，冬天早上一樣運作暢順。", "初速約 260 FPS，可單發及連發，附充電器。"],
  },
  // Shotguns
  {
    category: "shotguns",
    en: "Tri-Shot Spring Shotgun",
    zh: "三發齊射彈簧霰彈槍",
    hkd: 598,
    featured: true,
    variants: v(["Black", 16], ["Tan", 7]),
    images: 4,
    art: "shotgun-pump",
    daysAgo: 33,
    descEn: [
      "Each pump fires three BBs at once from a full-length polymer stock and a metal outer barrel.",
      "Around 300 FPS per BB, safely below Hong Kong's 2-joule limit and great for room clearing.",
    ],
    descZh: [
      "每泵動一次同時射出三粒 BB，全長聚合物槍托配金屬外管。",
      "每粒 BB 初速約 300 FPS，遠低於香港 2 焦耳上限，清房一流。",
    ],
  },
  {
    category: "shotguns",
    en: "Tactical Pump Shotgun",
    zh: "戰術泵動霰彈槍",
    hkd: 888,
    variants: v(["Black", 5], ["Olive Drab", 3]),
    images: 3,
    art: "shotgun-tactical",
    daysAgo: 52,
    descEn: [
      "A pistol-grip pump shotgun with a collapsible stock and a perforated heat shield.",
      "Switch between one and three BBs a shot; about 290 FPS.",
    ],
    descZh: ["手槍握把泵動霰彈槍，配伸縮槍托及散熱護罩。", "可切換單發或三發齊射，初速約 290 FPS。"],
  },
  {
    category: "shotguns",
    en: "Shell-Ejecting Gas Pump Shotgun",
    zh: "拋殼式氣動泵動霰彈槍",
    hkd: 2180,
    variants: v(["Black", 0]),
    images: 3,
    art: "shotgun-gas",
    daysAgo: 30,
    descEn: [
      "Load real-style shells, pump, and watch them eject: a gas-powered shotgun with a steel receiver.",
      "Six BBs per shot at about 280 FPS each, within Hong Kong's 2-joule limit.",
    ],
    descZh: [
      "仿真彈殼裝填，泵動後自動拋殼，鋼製機匣氣動霰彈槍。",
      "每發射出六粒 BB，每粒約 280 FPS，符合香港 2 焦耳上限。",
    ],
  },
  {
    category: "shotguns",
    en: "Breacher Short Spring Shotgun",
    zh: "破門短身彈簧霰彈槍",
    hkd: 458,
    variants: v(["Black", 0]),
    images: 2,
    art: "shotgun-breacher",
    daysAgo: 101,
    descEn: [
      "A stockless short shotgun with a pistol grip, sized for tight CQB corridors.",
      "Three BBs per pump at about 260 FPS.",
    ],
    descZh: ["無托短身霰彈槍配手槍握把，最啱狹窄 CQB 走廊。", "每泵動射出三粒 BB，初速約 260 FPS。"],
  },
  {
    category: "shotguns",
    en: "Over-Under Gas Shotgun",
    zh: "上下雙管氣動霰彈槍",
    hkd: 1480,
    variants: v(["Black", 2], ["Coyote Brown", 1]),
    images: 3,
    art: "shotgun-double",
    daysAgo: 77,
    descEn: [
      "A break-action double-barrel with twin gas shells, a metal receiver and a wood-effect stock.",
      "About 270 FPS per barrel, a collector favourite.",
    ],
    descZh: ["折開式上下雙管霰彈槍，雙氣彈殼、金屬機匣配仿木槍托。", "每管初速約 270 FPS，收藏家至愛。"],
  },
  // Accessories
  {
    category: "accessories",
    en: "1-4x24 Low Power Scope",
    zh: "1-4x24 低倍率瞄準鏡",
    hkd: 780,
    variants: v(["Black", 12], ["Tan", 4]),
    images: 3,
    art: "scope",
    daysAgo: 18,
    descEn: [
      "A true 1x to 4x variable optic with an illuminated reticle and a throw lever, fitted with 30 mm rings.",
      "Aluminium tube with shock-rated glass for airsoft use.",
    ],
    descZh: ["真 1 至 4 倍變焦瞄準鏡，發光分劃配快速變焦桿，附 30 毫米鏡環。", "鋁合金鏡身，防震鏡片適合氣槍使用。"],
  },
  {
    category: "accessories",
    en: "Compact Red Dot Sight 1x22",
    zh: "1x22 緊湊型紅點鏡",
    hkd: 358,
    variants: v(["Black", 30], ["Tan", 11]),
    images: 2,
    art: "red-dot",
    daysAgo: 60,
    descEn: [
      "A 2 MOA red dot with 11 brightness settings on a 20 mm rail mount.",
      "Runs for months on a single CR2032 battery.",
    ],
    descZh: ["2 MOA 紅點，11 級亮度，適用 20 毫米魚骨。", "一粒 CR2032 電池可用幾個月。"],
  },
  {
    category: "accessories",
    en: "3-9x40 Sniper Scope with Rings",
    zh: "3-9x40 狙擊瞄準鏡連鏡環",
    hkd: 520,
    variants: v(["Black", 8]),
    images: 2,
    art: "scope-long",
    daysAgo: 88,
    descEn: [
      "A classic 3-9x variable scope with a mil-dot reticle, flip-up lens caps and 25 mm rings.",
      "The natural partner for bolt-action spring rifles.",
    ],
    descZh: ["經典 3 至 9 倍變焦瞄準鏡，Mil-dot 分劃，附掀蓋式鏡蓋及 25 毫米鏡環。", "手拉彈簧狙擊槍嘅最佳拍檔。"],
  },
  {
    category: "accessories",
    en: "AEG Mid-Cap Magazine 120 rds (3-Pack)",
    zh: "電動槍中容量彈匣 120 發（三件裝）",
    hkd: 188,
    variants: v(["Black", 40], ["Tan", 22], ["Grey", 0]),
    images: 2,
    art: "magazine-rifle",
    daysAgo: 45,
    descEn: [
      "Three quiet, rattle-free 120-round mid-cap magazines in reinforced polymer for M-series AEGs.",
      "No winding needed, so they feed reliably from the first BB to the last.",
    ],
    descZh: [
      "三個強化聚合物 120 發中容量彈匣，適用 M 系列電動槍，無雜聲。",
      "毋須上鏈，由第一粒到最後一粒都供彈穩定。",
    ],
  },
  {
    category: "accessories",
    en: "GBB Pistol Spare Magazine 25 rds",
    zh: "GBB 手槍後備彈匣 25 發",
    hkd: 298,
    variants: v(["Black", 18]),
    images: 1,
    art: "magazine-pistol",
    daysAgo: 112,
    descEn: [
      "A full-metal gas magazine for G-series gas blowback pistols, holding 25 BBs.",
      "Brass valve and a reinforced gas route for consistent velocity.",
    ],
    descZh: ["G 系列 GBB 手槍專用全金屬氣匣，可裝 25 粒 BB。", "黃銅氣閥及強化氣路，初速更穩定。"],
  },
  {
    category: "accessories",
    en: "0.25 g Precision BBs (4000 rds)",
    zh: "0.25 克精密 BB 彈（4000 發）",
    hkd: 68,
    variants: v(["Default", 40]),
    images: 1,
    art: "bb-bottle",
    daysAgo: 116,
    descEn: [
      "Seamless, polished 6 mm BBs with tight weight tolerance for better hop-up consistency.",
      "Supplied in a resealable bottle.",
    ],
    descZh: ["無縫拋光 6 毫米 BB 彈，重量公差細，Hop-up 表現更一致。", "可重複封口樽裝。"],
  },
  {
    category: "accessories",
    en: "0.20 g Biodegradable BBs (5000 rds)",
    zh: "0.20 克生物降解 BB 彈（5000 發）",
    hkd: 58,
    variants: v(["Default", 35]),
    images: 1,
    art: "bb-bag",
    daysAgo: 90,
    descEn: [
      "Biodegradable BBs required by many outdoor fields in the New Territories.",
      "Consistent 0.20 g weight for everyday AEG and gas use.",
    ],
    descZh: ["新界好多戶外場地都要求使用生物降解 BB 彈。", "穩定 0.20 克重量，啱晒日常電動槍及氣槍使用。"],
  },
  {
    category: "accessories",
    en: "11.1V 1300 mAh LiPo Battery",
    zh: "11.1V 1300 mAh 鋰電池",
    hkd: 218,
    variants: v(["Default", 20]),
    images: 2,
    art: "battery",
    daysAgo: 35,
    descEn: [
      "A 25C stick LiPo with a mini connector that fits most stock tubes and handguards.",
      "Gives a sharper trigger response than NiMH packs; use a balance charger.",
    ],
    descZh: ["25C 條型鋰電池，迷你插頭，可放入大部分槍托管及護木。", "扳機反應比鎳氫電池更快；請使用平衡充電器。"],
  },
  {
    category: "accessories",
    en: "Two-Point Padded Sling",
    zh: "兩點式加厚槍帶",
    hkd: 148,
    variants: v(["Black", 22], ["Tan", 12], ["Olive Drab", 9], ["Multi-Terrain Camo", 5]),
    images: 2,
    art: "sling",
    daysAgo: 75,
    descEn: [
      "A quick-adjust two-point sling with a padded shoulder section and push-button swivels.",
      "Nylon webbing that stays comfortable through a full game day.",
    ],
    descZh: ["快速調節兩點式槍帶，肩部加厚，附按鈕式快拆扣。", "尼龍織帶，成日遊戲都舒適。"],
  },
  {
    category: "accessories",
    en: "Vertical Foregrip",
    zh: "垂直前握把",
    hkd: 128,
    variants: v(["Black", 25], ["Tan", 10], ["Olive Drab", 6]),
    images: 1,
    art: "foregrip",
    daysAgo: 98,
    descEn: [
      "A textured polymer vertical grip for 20 mm rails with a storage compartment for a spare battery.",
      "Adds control for full-auto bursts.",
    ],
    descZh: ["20 毫米魚骨用防滑聚合物垂直握把，內置儲物格可放後備電池。", "連發射擊時更易控制。"],
  },
  {
    category: "accessories",
    en: "Mock Suppressor 14 mm CCW",
    zh: "仿真滅聲器 14 毫米逆牙",
    hkd: 238,
    variants: v(["Black", 14], ["Tan", 5]),
    images: 2,
    art: "suppressor",
    daysAgo: 22,
    descEn: [
      "An aluminium mock suppressor with sound-dampening foam that softens the AEG report.",
      "Fits 14 mm counter-clockwise threads; cosmetic and legal to own in Hong Kong.",
    ],
    descZh: ["鋁合金仿真滅聲器，內置吸音棉可減低電動槍聲浪。", "適用 14 毫米逆牙，純裝飾用途，香港可合法擁有。"],
  },
  {
    category: "accessories",
    en: "Folding Rail Bipod",
    zh: "摺疊式魚骨腳架",
    hkd: 268,
    variants: v(["Black", 9]),
    images: 2,
    art: "bipod",
    daysAgo: 66,
    descEn: [
      "A spring-loaded folding bipod with five height settings that clamps onto 20 mm rails.",
      "Steadies DMRs and snipers for long-range shots.",
    ],
    descZh: ["彈簧摺疊腳架，五段高度調節，可裝於 20 毫米魚骨。", "令 DMR 及狙擊槍遠距離射擊更穩定。"],
  },
  // Tactical gear
  {
    category: "tactical-gear",
    en: "Plate Carrier Lite",
    zh: "輕量化板架戰術背心",
    hkd: 980,
    featured: true,
    variants: v(["Black", 6], ["Tan", 4], ["Olive Drab", 3], ["Multi-Terrain Camo", 5]),
    images: 4,
    art: "plate-carrier",
    daysAgo: 4,
    descEn: [
      "A low-profile 500D nylon carrier with laser-cut MOLLE, elastic cummerbund and foam dummy plates.",
      "Breathable mesh lining keeps you cooler in humid Hong Kong summers.",
    ],
    descZh: [
      "低調 500D 尼龍板架背心，激光切割 MOLLE、彈性腰封，附泡棉模擬板。",
      "透氣網布內襯，香港潮濕夏天都較清爽。",
    ],
  },
  {
    category: "tactical-gear",
    en: "Assault Plate Carrier Pro",
    zh: "突擊型板架戰術背心 Pro",
    hkd: 1680,
    variants: v(["Multi-Terrain Camo", 2], ["Black", 3]),
    images: 3,
    art: "plate-carrier-pro",
    daysAgo: 16,
    descEn: [
      "A full-featured carrier with a triple magazine placard, quick-release buckles and a padded drag handle.",
      "1000D nylon shell with a hook-and-loop admin panel for patches.",
    ],
    descZh: ["功能齊全嘅板架背心，配三聯彈匣前掛板、快拆扣及加厚拖拉帶。", "1000D 尼龍外層，設魔術貼臂章位。"],
  },
  {
    category: "tactical-gear",
    en: "Modular Chest Rig",
    zh: "模組化胸掛",
    hkd: 560,
    variants: v(["Black", 7], ["Ranger Green", 5], ["Multi-Terrain Camo", 2]),
    images: 2,
    art: "chest-rig",
    daysAgo: 50,
    descEn: [
      "Four rifle magazine pouches with bungee retention on an H-harness that adjusts in seconds.",
      "Light and open at the back, ideal for summer games.",
    ],
    descZh: ["四格長槍彈匣包配彈性繩固定，H 型肩帶幾秒即可調校。", "背部開放輕巧，最啱夏天打波。"],
  },
  {
    category: "tactical-gear",
    en: "High-Cut Bump Helmet",
    zh: "高切防撞頭盔",
    hkd: 680,
    variants: v(["Black", 8], ["Tan", 5], ["Olive Drab", 2]),
    images: 3,
    art: "helmet",
    daysAgo: 12,
    descEn: [
      "An ABS high-cut helmet with side rails, a front shroud and an adjustable dial harness.",
      "Padded interior and hook-and-loop panels for patches and lights.",
    ],
    descZh: ["ABS 高切頭盔，配側導軌、前置支架及旋鈕調節頭帶。", "內有軟墊，外設魔術貼位可裝臂章及燈具。"],
  },
  {
    category: "tactical-gear",
    en: "Mesh Lower Face Mask",
    zh: "鋼網下半臉面罩",
    hkd: 98,
    variants: v(["Black", 30], ["Tan", 12]),
    images: 1,
    art: "face-mask",
    daysAgo: 79,
    descEn: [
      "A steel mesh lower face guard that protects teeth and lips without fogging your goggles.",
      "Elastic straps fit over most helmets and caps.",
    ],
    descZh: ["鋼網下半臉護罩，保護牙齒及嘴唇，又唔會令護目鏡起霧。", "彈性帶可配大部分頭盔及帽。"],
  },
  {
    category: "tactical-gear",
    en: "Full-Finger Tactical Gloves",
    zh: "全指戰術手套",
    hkd: 218,
    variants: v(["Black", 20], ["Tan", 0], ["Olive Drab", 11]),
    images: 2,
    art: "gloves",
    daysAgo: 43,
    descEn: [
      "Synthetic leather palms, padded knuckles and touchscreen-friendly fingertips.",
      "Protects your hands from BB hits without losing trigger feel.",
    ],
    descZh: ["合成皮手掌、指節護墊及可觸屏指尖。", "擋 BB 之餘唔會影響扳機手感。"],
  },
  {
    category: "tactical-gear",
    en: "Triple Magazine Pouch (MOLLE)",
    zh: "三聯彈匣包（MOLLE）",
    hkd: 158,
    variants: v(["Black", 14], ["Coyote Brown", 8], ["Multi-Terrain Camo", 0]),
    images: 2,
    art: "pouch",
    daysAgo: 58,
    descEn: [
      "Holds three rifle magazines with adjustable bungee retention, mounting to any MOLLE panel.",
      "Drainage grommets at the base for wet days.",
    ],
    descZh: ["可放三個長槍彈匣，彈性繩鬆緊可調，適用任何 MOLLE 面板。", "底部設排水孔，雨天都無問題。"],
  },
  {
    category: "tactical-gear",
    en: "Padded Battle Belt",
    zh: "加厚戰術腰封",
    hkd: 420,
    variants: v(["Black", 5], ["Ranger Green", 3]),
    images: 2,
    art: "belt",
    daysAgo: 25,
    descEn: [
      "A two-piece battle belt with a hook-and-loop inner belt, MOLLE sleeve and a quick-release metal buckle.",
      "Carries a holster, dump pouch and mags without sagging.",
    ],
    descZh: ["兩件式戰術腰封，魔術貼內腰帶、MOLLE 外套及金屬快拆扣。", "掛槍套、回收袋及彈匣都唔會下墜。"],
  },
  {
    category: "tactical-gear",
    en: "Knee & Elbow Pad Set",
    zh: "護膝護肘套裝",
    hkd: 188,
    variants: v(["Black", 16], ["Tan", 6]),
    images: 1,
    art: "knee-pads",
    daysAgo: 105,
    descEn: [
      "Hard-shell pads with thick foam backing for kneeling on concrete CQB floors.",
      "Elastic straps with hook-and-loop closures.",
    ],
    descZh: ["硬殼護墊配厚泡棉，喺石屎 CQB 場跪低都唔痛。", "彈性帶配魔術貼固定。"],
  },
  // Bags & Cases (inactive category)
  {
    category: "bags-cases",
    en: "Padded Rifle Bag 100 cm",
    zh: "加厚長槍袋 100 厘米",
    hkd: 420,
    variants: v(["Black", 10], ["Tan", 5], ["Olive Drab", 3]),
    images: 2,
    art: "rifle-bag",
    daysAgo: 86,
    descEn: [
      "A 100 cm padded bag with three magazine pouches and lockable zips.",
      "Hong Kong law expects replicas to travel covered, and this bag keeps your rifle discreet on the MTR.",
    ],
    descZh: ["100 厘米加厚槍袋，設三個彈匣袋及可上鎖拉鏈。", "香港法例要求仿真槍外出時要妥善遮蓋，搭港鐵都低調安心。"],
  },
  {
    category: "bags-cases",
    en: "Waterproof Hard Case 105 cm",
    zh: "防水硬殼槍箱 105 厘米",
    hkd: 1180,
    variants: v(["Black", 4]),
    images: 2,
    art: "hard-case",
    daysAgo: 70,
    descEn: [
      "A crushproof, waterproof polymer case with pick-and-pluck foam and padlock points.",
      "Fits a full-length rifle plus a pistol and spare magazines.",
    ],
    descZh: ["防壓防水聚合物槍箱，內附可撕式泡棉及鎖孔。", "可放一支全長長槍連手槍及後備彈匣。"],
  },
  {
    category: "bags-cases",
    en: "30 L Assault Backpack",
    zh: "30 公升突擊背囊",
    hkd: 480,
    variants: v(["Black", 6], ["Multi-Terrain Camo", 2]),
    images: 2,
    art: "backpack",
    daysAgo: 7,
    descEn: [
      "A 30-litre daypack with MOLLE webbing, a hydration sleeve and a padded laptop pocket.",
      "Tough enough for field days, plain enough for the office.",
    ],
    descZh: ["30 公升背囊，設 MOLLE 織帶、水袋隔層及加厚電腦袋。", "打波夠耐用，返工都夠低調。"],
  },
  // Holsters & Flashlight (inactive category)
  {
    category: "holsters-flashlight",
    en: "Polymer Retention Holster",
    zh: "聚合物鎖扣槍套",
    hkd: 268,
    variants: v(["Black", 12], ["Tan", 6]),
    images: 2,
    art: "holster",
    daysAgo: 31,
    descEn: [
      "A thumb-release retention holster for G-series pistols with paddle and belt mounts included.",
      "Audible click when the pistol seats, quick draw when you need it.",
    ],
    descZh: ["G 系列手槍專用拇指解鎖槍套，附腰板及腰帶兩種安裝方式。", "入槍時有清脆提示聲，拔槍迅速。"],
  },
  {
    category: "holsters-flashlight",
    en: "1000-Lumen Weapon Light",
    zh: "1000 流明槍燈電筒",
    hkd: 468,
    variants: v(["Black", 9], ["Tan", 3]),
    images: 2,
    art: "flashlight",
    daysAgo: 3,
    descEn: [
      "An aluminium weapon light with a 1000-lumen LED, strobe mode and a 20 mm rail mount.",
      "Runs on two CR123A cells; includes a remote pressure switch.",
    ],
    descZh: ["鋁合金槍燈，1000 流明 LED 設爆閃模式，適用 20 毫米魚骨。", "使用兩粒 CR123A 電池，附線控開關。"],
  },
  // Eyewear (inactive category)
  {
    category: "eyewear",
    en: "Anti-Fog Tactical Goggles",
    zh: "防霧戰術護目鏡",
    hkd: 298,
    variants: v(["Black", 15], ["Tan", 9], ["Olive Drab", 5]),
    images: 3,
    art: "goggles",
    daysAgo: 19,
    descEn: [
      "Impact-rated polycarbonate goggles with a double-pane anti-fog lens and a wide adjustable strap.",
      "Fits over most prescription glasses.",
    ],
    descZh: ["防撞聚碳酸酯護目鏡，雙層防霧鏡片配闊身可調頭帶。", "可戴喺大部分近視眼鏡外面。"],
  },
  {
    category: "eyewear",
    en: "Ballistic Shooting Glasses (3-Lens Kit)",
    zh: "防彈射擊眼鏡（三鏡片套裝）",
    hkd: 178,
    variants: v(["Black", 20], ["Grey", 7]),
    images: 2,
    art: "glasses",
    daysAgo: 62,
    descEn: [
      "Wraparound shooting glasses with clear, smoke and amber lenses for any light.",
      "Impact-rated polycarbonate; comes with a hard zip case.",
    ],
    descZh: ["包覆式射擊眼鏡，附透明、黑色及琥珀色三款鏡片，適合不同光線。", "防撞聚碳酸酯，附硬殼拉鏈盒。"],
  },
  // Tactical Apparel (inactive category)
  {
    category: "tactical-apparel",
    en: "Field Combat Shirt",
    zh: "野戰戰術衫",
    hkd: 388,
    variants: v(["Multi-Terrain Camo", 6], ["Black", 8], ["Ranger Green", 4], ["Tan", 0]),
    images: 2,
    art: "combat-shirt",
    daysAgo: 28,
    descEn: [
      "A combat shirt with a breathable moisture-wicking torso, ripstop sleeves and zip shoulder pockets.",
      "Built to be worn under a plate carrier on hot days.",
    ],
    descZh: ["戰術衫身採用透氣排汗物料，袖用防撕布，肩位設拉鏈袋。", "專為炎熱天氣下配戴板架背心而設計。"],
  },
  {
    category: "tactical-apparel",
    en: "Tactical Baseball Cap",
    zh: "戰術棒球帽",
    hkd: 128,
    variants: v(["Black", 20], ["Olive Drab", 10], ["Tan", 8]),
    images: 1,
    art: "cap",
    daysAgo: 114,
    descEn: [
      "A ripstop cap with a hook-and-loop patch panel and a low profile that fits under ear protection.",
      "Adjustable strap at the back.",
    ],
    descZh: ["防撕布棒球帽，前設魔術貼臂章位，帽身低調可配耳罩。", "後方可調校帽帶。"],
  },
];

export const SEED_PRODUCTS: SeedProduct[] = PRODUCT_SOURCES.map((source) => ({
  category: source.category,
  name_en: source.en,
  name_zh: source.zh,
  description_en: source.descEn.join(" "),
  description_zh: source.descZh.join(""),
  ...pricesFromHkd(source.hkd),
  is_featured: source.featured ? 1 : 0,
  variants: source.variants,
  images: source.images,
  art: source.art,
  daysAgo: source.daysAgo,
}));

export const SEED_BLOG_POSTS: SeedBlogPost[] = [
  {
    title_en: "Hong Kong's 2-Joule Rule: What Every Airsoft Buyer Should Know",
    title_zh: "香港 2 焦耳規定：買氣槍前必須知道嘅事",
    author: "Marcus Lee",
    published: 1,
    daysAgo: 21,
    image: "loadout",
    content_en: `Under the Firearms and Ammunition Ordinance, an airsoft gun whose muzzle energy exceeds **2 joules** is
treated as an arm and needs a licence. Everything we sell is tested before it leaves our warehouse to stay below
that line.

## What does 2 joules mean in FPS?

Muzzle energy depends on both speed and BB weight. As a rule of thumb:

- with **0.20 g** BBs, 2 joules is about **460 FPS**
- with **0.25 g** BBs, it is about **415 FPS**
- with **0.28 g** BBs, it is about **390 FPS**

That is why our product pages always quote FPS together with the BB weight used for the measurement.

## Upgrades change the numbers

A stronger spring, a tighter barrel or a higher-pressure gas can push a legal replica over the limit. If you
upgrade, have your gun chronographed again at your field, and keep the readings.

## Carry it covered

Take your replicas to and from the field in a closed bag or case. It keeps the public calm and keeps you on the
right side of the law. This article is general information, not legal advice.`,
    content_zh: `根據《火器及彈藥條例》，槍口動能超過 **2 焦耳** 嘅氣槍會被視為槍械，需要領牌。我們出售嘅每一支槍出倉前都經過測試，確保低於此上限。

## 2 焦耳大約等於幾多 FPS？

槍口動能同時取決於初速及 BB 重量，大致如下：

- 使用 **0.20 克** BB，2 焦耳約為 **460 FPS**
- 使用 **0.25 克** BB，約為 **415 FPS**
- 使用 **0.28 克** BB，約為 **390 FPS**

所以我們嘅產品頁面列出 FPS 時，一定會註明測試用嘅 BB 重量。

## 改裝會改變數字

換強力彈簧、精密內管或高壓氣體，都可能令合法嘅槍超出上限。改裝之後，請喺場地重新測速並保留紀錄。

## 外出請妥善遮蓋

往返場地時，請將槍械放入密封槍袋或槍箱。既可避免引起公眾恐慌，亦確保你守法。本文只屬一般資訊，並非法律意見。`,
  },
  {
    title_en: "Gas, AEG or Spring? Choosing Your First Airsoft Gun",
    title_zh: "氣動、電動定彈簧？揀選你嘅第一支氣槍",
    author: "Kelly Chan",
    published: 1,
    daysAgo: 6,
    image: "platforms",
    content_en: `Walk into any Hong Kong field on a Sunday and you will see three kinds of replicas. Each has its
strengths, and the right one depends on how and where you play.

## AEG: the all-rounder

Automatic electric guns run on a rechargeable battery, so they work the same in January as in July. They are
the easiest rifles to maintain and the best value for a first full-size gun.

## Gas blowback: the realistic choice

Gas blowback (GBB) pistols and rifles cycle a moving slide or bolt on every shot. The recoil is addictive, but
green gas loses pressure on cold mornings, so bring spare magazines and keep them warm.

## Spring: simple and cheap

Spring guns are cocked by hand before every shot. They never run out of gas or battery, which makes spring
shotguns and snipers surprisingly popular with experienced players.

Whatever you choose, budget for eye protection first.`,
    content_zh: `星期日去任何一個香港場地，都會見到三類氣槍。各有優點，啱唔啱你就要睇你點玩、喺邊度玩。

## 電動槍：全能之選

電動槍（AEG）使用充電池，無論一月定七月表現都一樣。保養最簡單，作為第一支全尺寸長槍最抵玩。

## 氣動回膛：最真實

氣動回膛（GBB）手槍及長槍每發都會帶動滑套或槍機，後座力令人上癮。不過天氣凍嘅早上綠氣壓力會下降，記得帶多幾個彈匣並注意保暖。

## 彈簧槍：簡單又平

彈簧槍每發都要手動上膛，永遠唔會無氣無電，所以彈簧霰彈槍及狙擊槍喺老手之間都好受歡迎。

無論揀邊款，都請先預留預算買護目鏡。`,
  },
  {
    title_en: "Summer Field-Day Checklist for Hong Kong Players",
    title_zh: "香港玩家夏日野戰清單",
    author: "Harbour Tactical Team",
    published: 0,
    daysAgo: 0,
    image: null,
    content_en: `Heat and humidity are the biggest enemies of a good game day between May and October. Here is what
our team packs.

- Two litres of water per person, plus electrolytes
- Anti-fog spray or a fan-equipped goggle
- A light combat shirt instead of a jacket
- A spare battery kept out of direct sun

Check the Observatory's heat stress warnings before you leave, and call the day off if a black rainstorm signal
is hoisted.`,
    content_zh: `五月至十月期間，炎熱潮濕係野戰日最大嘅敵人。以下係我們團隊嘅必備清單。

- 每人兩公升水，另加電解質飲品
- 防霧噴劑或附風扇嘅護目鏡
- 以輕身戰術衫代替外套
- 後備電池要避免陽光直射

出發前請留意天文台嘅酷熱天氣警告；如懸掛黑色暴雨警告信號，請取消當日活動。`,
  },
];

export const SEED_BANK_ACCOUNT: SeedBankAccount = {
  bank_name: "HSBC Hong Kong",
  account_holder: "Harbour Tactical Limited",
  account_number: "848-302915-838",
  fps_id: "1648203",
  swift_code: "HSBCHKHHHKH",
  routing_number: null,
  bank_address: "1 Queen's Road Central, Hong Kong",
  is_primary: 1,
};
