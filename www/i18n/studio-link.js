// The page's link to the lesson studio (studio.html), in the page's four languages: a file of
// its own so the page carries these few words and nothing else of the studio (its words are
// in i18n-studio-*.js, which only the studio loads).
export default {
  en: 'Make a lesson (studio)',
  uk: 'Створити урок (студія)',
  pl: 'Przygotuj lekcję (studio)',
  ru: 'Создать урок (студия)',
};
