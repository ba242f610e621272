/** English text of Settings → Search synonyms; zh/admin-search.ts has the same keys. */
export default {
  title: "Search synonyms",
  intro:
    "Words your shoppers use for the same thing. A search for any word of a group finds what every word of it finds: 步槍 finds the guns named 長槍 or “rifle” too.",
  back: "Back to Settings",
  label: "Synonym groups",
  hint: "One group a line, its words separated by commas or slashes, e.g. 長槍, 步槍, rifle. Up to 100 groups of 2 to 10 words, each word 2 to 40 characters. A word is found anywhere in a product's name or category, in English and Chinese; capitals do not matter. Save an empty list to search without synonyms.",
  stateDefault: "The shop's default list applies.",
  stateEdited: "Your list, edited {{date}}.",
  count_one: "{{count}} group",
  count_other: "{{count}} groups",
  save: "Save synonyms",
  saving: "Saving...",
  saved: "Search synonyms saved.",
  reset: "Restore the default list",
  resetHint: "Replaces your list with the one the shop came with.",
  resetDone: "The default search synonyms apply again.",
  keep: "Keep my list",
  summary: {
    heading: "Search synonyms",
    intro: "Words shoppers use for the same thing (步槍, 長槍, rifle), so a search in either language finds it.",
    edit: "Edit search synonyms",
  },
  errors: {
    textTooLong: "The list is too long: at most {{max}} characters.",
    tooManyGroups: "There can be at most {{max}} groups (one a line).",
    tooManyTerms: "Line {{line}}: a group can have at most {{max}} words.",
    oneTerm: "Line {{line}}: a group needs at least two words, separated by commas or slashes.",
    termTooShort: "Line {{line}}: “{{term}}” is too short: a word needs at least {{min}} characters.",
    termTooLong: "Line {{line}}: a word is longer than {{max}} characters.",
    termRepeated:
      "Line {{line}}: “{{term}}” is already in the group on line {{first}}; a word can be in one group only.",
    more_one: "…and {{count}} more problem.",
    more_other: "…and {{count}} more problems.",
  },
};
