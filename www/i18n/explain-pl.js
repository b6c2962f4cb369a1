// The explanation ("How it works") in Polish: loaded with www/panel/explain.js only when
// a reader first opens it (texts.js `explain`), never with the page. Inline marks: *emphasis*,
// {v} a variable, {w_s} a variable with a subscript (rendered as DOM nodes, never as HTML).

export default {
  title: 'Jak boid decyduje, dokąd lecieć',
  intro:
    'Każdy boid widzi tylko sąsiadów w swoim *promieniu percepcji* (i nie widzi tych tuż za sobą). Sześćdziesiąt razy na sekundę sumuje trzy pchnięcia:',
  rules: [
    'oddalaj się od zbyt bliskich sąsiadów, tym mocniej, im są bliżej (czuje ich dookoła, nawet tuż za sobą).',
    'skręcaj w stronę średniego kierunku lotu sąsiadów.',
    'kieruj się do środka grupy sąsiadów, słabiej, gdy ktoś jest zbyt blisko.',
  ],
  formula: 'v prim równa się v plus w s razy S plus w a razy A plus w c razy C',
  body:
    '{S}, {A} i {C} to trzy wektory sterowania, a wagi {w_s}, {w_a}, {w_c} to suwaki Separacja, Wyrównanie i Spójność. Każde pchnięcie jest ograniczone maksymalną siłą, ale zachowanie odstępu jest najważniejsze: wewnątrz promienia separacji pchnięcie rośnie, im bliżej sąsiad (aż do dziesięciokrotności limitu), a spójność ustępuje tyle samo razy, więc boidy trzymają odstęp, jakkolwiek mocno się skupiają. Pchnięcia głównie skręcają boida (pomnożone przez krok czasu, zmieniają kierunek {v}), a jego szybkość wraca do przelotowej. Żaden boid nie prowadzi: kształt stada wynika wyłącznie z tych lokalnych reguł.',
  try:
    'Spróbuj: ustaw Wyrównanie na 0, a stado rozpadnie się w rój; ustaw Spójność na 0, a grupy się rozejdą; zwiększ Separację, a boidy się rozproszą.',
  more: {
    title: 'Poza trzema regułami',
    items: [
      ['Jastrzębie', 'Jastrząb goni najbliższe boidy. Boidy w jego promieniu ucieczki gwałtownie skręcają i wpadają w panikę (do dwukrotności swojej największej prędkości), więc stado rozpryskuje się i zamyka znowu za nim.'],
      ['Przeszkody', 'Każdy boid patrzy przed siebie wzdłuż swojej prędkości; gdy ten promień wkrótce trafiłby w kulę, boid skręca wzdłuż jej powierzchni.'],
      ['Przywódcy', 'Przywódcy lecą zamkniętą trasą; każdy boid jest przyciągany do najbliższego z nich, więc całe stado podąża trasą.'],
      ['Wskaźnik', 'Dopóki wskaźnik jest wciśnięty, każdy boid jest przyciągany do tego punktu albo od niego odpychany.'],
      ['Wiatr', 'Stałe pchnięcie, jednakowe dla wszystkich: stado zachowuje kształt i dryfuje z wiatrem.'],
      ['Gatunki', 'Wyrównanie i spójność działają tylko w obrębie gatunku, separacja między wszystkimi, więc kilka stad dzieli niebo i opływa się nawzajem.'],
      ['Najbliższe k', 'Prawdziwe szpaki zważają na około siedmiu najbliższych sąsiadów, niezależnie od odległości (Ballerini i in., 2008), więc rzadkie stado trzyma się razem tak samo jak gęste.'],
      ['2D', 'Płaski świat widziany z góry, od którego zaczynają się lekcje: te same reguły, każde z = 0.'],
    ],
  },
};
