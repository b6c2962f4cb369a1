// Every piece of interface text, in English, Ukrainian, Polish and Russian: the one table.
//
// - `ui`: buttons, readouts, messages, the page's masthead.
// - `explain`: the explanation panel. Inline marks: *emphasis*, {v} a variable, {w_s} a
//   variable with a subscript (rendered as DOM nodes, never as HTML).
// - `params`: [label, description] per parameter name of `Flock.params()`. English has none:
//   the parameter table itself is the English text, and any parameter a language lacks falls
//   back to it (tests/browser/embed-i18n.test.mjs fails while a label is untranslated).
// - `presets`: [label, description] per preset name of `Flock.presets()`; English falls back to
//   the presets table as `params` does to the parameter table.
// - `units`: the table's units, keyed by their English spelling.
// The panel's groups, Keys help, legends and touch wording live in i18n-panel.js (merged
// into `ui` below).

import { PANEL_TEXT } from './i18n-panel.js';
import { INSTRUMENT_TEXT } from './i18n-instruments.js';

export const LANGS = ['en', 'uk', 'pl', 'ru'];

/** Each language's own name, for a language picker. */
export const LANG_NAMES = { en: 'English', uk: 'Українська', pl: 'Polski', ru: 'Русский' };

const en = {
  ui: {
    pageTitle: 'Boids — flocking in Rust, WebAssembly and WebGL2',
    heading: 'Boids',
    tagline: 'Three simple rules, no leader, and a flock appears.',
    language: 'Language',
    simulation: 'Simulation',
    panel: 'Controls',
    controls: 'Flock parameters',
    pause: 'Pause',
    play: 'Play',
    step: 'Step',
    rebuild: 'Rebuild',
    pauseTitle: 'Pause or resume the flock (Space)',
    stepTitle: 'Advance one step of 1/60 s (use while paused)',
    rebuildTitle: 'Scatter the boids afresh with the current settings (R)',
    paused: 'Paused',
    copyLink: 'Copy link',
    copyLinkTitle: 'Copy a link that opens this flock with the same settings and seed',
    linkCopied: 'Link copied.',
    linkManual: 'Copy this link:',
    linkField: 'Link to these settings',
    fps: 'FPS',
    sim: 'Sim',
    boids: 'Boids',
    ms: 'ms',
    on: 'On',
    off: 'Off',
    canvas:
      '3D view of the flock. Drag to orbit, scroll or pinch to zoom toward the flock, double-click to frame the flock. With the keyboard: arrow keys orbit, + and − zoom, F frames the flock, 0 shows the whole box, Space pauses, R rebuilds.',
    hint: 'Drag to orbit · scroll or pinch to zoom · double-click to frame the flock · Space pauses · R rebuilds',
    noWebglTitle: 'This browser cannot draw the flock.',
    noWebglDetail:
      "WebGL2 is not available in this browser. Try a current version of Firefox, Chrome, Edge or Safari, and make sure hardware acceleration is turned on in the browser's settings.",
    errorTitle: 'The simulation stopped because of an error.',
    errorReload: '(Reload the page to start again.)',
    contextLost: "Drawing stopped: the browser took back this flock's graphics context.",
    tooMany: 'Too many flocks on this page are drawing at once.',
    resume: 'Click to resume',
    noscript: 'This simulation needs JavaScript and WebAssembly.',
    presets: 'Presets',
    presetsHint: 'One click sets the rule weights, radii, field of view and speed together; the sliders show the new values.',
    scene: 'In the scene',
    predator: 'Predator',
    predatorHint: 'A hawk hunts the flock; boids close to it flee. The Hawks slider sets how many.',
    pointer: 'Pointer',
    pointerOff: 'Off',
    pointerAttract: 'Attract',
    pointerRepel: 'Repel',
    pointerHint:
      'Attract or Repel: press and hold on the scene, and the flock flies toward that point (or away from it). With a mouse, hold Shift to attract or Alt to repel.',
    obstacles: 'Obstacles',
    obstaclesHint: 'Click the scene to add an obstacle: a sphere the boids steer around.',
    clearObstacles: 'Clear obstacles',
    obstaclesFull: 'There is no room for more obstacles.',
    hintObstacles: 'click adds an obstacle',
    canvasObstacles: 'Click to add an obstacle.',
    canvasPointer: 'With the pointer tool on, press and hold to attract or repel the flock.',
  },
  explain: {
    title: 'How a boid decides where to fly',
    intro:
      'Each boid sees only the neighbours inside its *perception radius* (and not those right behind it). Sixty times a second it adds up three nudges:',
    rules: [
      'move away from neighbours that are too close, harder the closer they are (felt all round, even right behind).',
      'turn toward the average direction the neighbours fly in.',
      'steer toward the centre of the neighbours, less while someone is too close.',
    ],
    formula: 'v prime equals v plus w s times S plus w a times A plus w c times C',
    body:
      "{S}, {A} and {C} are the three steering vectors, and the weights {w_s}, {w_a}, {w_c} are the Separation, Alignment and Cohesion sliders. Each nudge is capped at the Max force, but keeping one's distance comes first: inside the separation radius the push grows as the gap closes (up to ten times the cap) and cohesion gives way by the same factor, so boids keep their spacing however hard they gather. The nudges mostly turn a boid (times the time step, they change the direction of {v}); its speed eases back to the cruise speed. No boid leads: the flock's shape comes only from these local rules.",
    try:
      'Try: set Alignment to 0 and the flock dissolves into a swarm; set Cohesion to 0 and groups drift apart; raise Separation and they spread out.',
    more: {
      title: 'Beyond the three rules',
      items: [
        ['Hawks', 'A hawk chases the nearest boids. Boids inside its flee radius steer hard away and panic (up to twice their top speed), so the flock bursts apart and closes again behind it.'],
        ['Obstacles', 'Each boid looks ahead along its velocity; when that ray would hit a sphere soon, it steers away along the sphere’s surface.'],
        ['Leaders', 'Leaders fly a closed loop; each boid adds a pull toward the nearest one, so the whole flock follows the route.'],
        ['Pointer', 'While the pointer is held down, every boid adds a pull toward that point, or a push away from it.'],
        ['Wind', 'A steady push that every boid feels the same: the flock keeps its shape and drifts downwind.'],
        ['Species', 'Alignment and cohesion act only within a species, separation among all, so several flocks share the sky and flow around each other.'],
        ['Nearest k', 'Real starlings heed about seven nearest neighbours however far they are (Ballerini et al., 2008), so a sparse flock holds together as well as a dense one.'],
        ['2D', 'A flat world seen from above, where the lessons begin: the same rules with every z at 0.'],
      ],
    },
  },
  params: {},
  presets: {},
  units: {},
};

const uk = {
  ui: {
    pageTitle: 'Боїди — зграя на Rust, WebAssembly і WebGL2',
    heading: 'Боїди',
    tagline: 'Три прості правила, жодного ватажка — і з’являється зграя.',
    language: 'Мова',
    simulation: 'Симуляція',
    panel: 'Керування',
    controls: 'Параметри зграї',
    pause: 'Пауза',
    play: 'Пуск',
    step: 'Крок',
    rebuild: 'Заново',
    pauseTitle: 'Призупинити або продовжити (Пробіл)',
    stepTitle: 'Один крок на 1/60 с (коли на паузі)',
    rebuildTitle: 'Розсипати боїдів заново з поточними налаштуваннями (R)',
    paused: 'Пауза',
    copyLink: 'Копіювати посилання',
    copyLinkTitle: 'Скопіювати посилання, що відкриває цю зграю з тими самими налаштуваннями й зерном',
    linkCopied: 'Посилання скопійовано.',
    linkManual: 'Скопіюйте це посилання:',
    linkField: 'Посилання на ці налаштування',
    fps: 'кадр/с',
    sim: 'Модель',
    boids: 'Боїдів',
    ms: 'мс',
    on: 'Увімк.',
    off: 'Вимк.',
    canvas:
      '3D-вигляд зграї. Тягніть, щоб обертати; прокрутіть або зведіть пальці, щоб наблизити зграю; двічі клацніть, щоб показати всю зграю. З клавіатури: стрілки обертають, + і − масштабують, F показує зграю, 0 — увесь простір, Пробіл — пауза, R — заново.',
    hint: 'Тягніть — обертання · прокрутка або щипок — масштаб · подвійний клік — показати зграю · Пробіл — пауза · R — заново',
    noWebglTitle: 'Цей браузер не може намалювати зграю.',
    noWebglDetail:
      'У цьому браузері немає WebGL2. Спробуйте сучасну версію Firefox, Chrome, Edge або Safari й переконайтеся, що в налаштуваннях браузера ввімкнено апаратне прискорення.',
    errorTitle: 'Симуляція зупинилася через помилку.',
    errorReload: '(Перезавантажте сторінку, щоб почати знову.)',
    contextLost: 'Малювання зупинилося: браузер забрав графічний контекст цієї зграї.',
    tooMany: 'Забагато зграй на цій сторінці малюються одночасно.',
    resume: 'Натисніть, щоб продовжити',
    noscript: 'Для цієї симуляції потрібні JavaScript і WebAssembly.',
    presets: 'Готові набори',
    presetsHint: 'Один клік задає разом ваги правил, радіуси, поле зору й швидкість; повзунки показують нові значення.',
    scene: 'У сцені',
    predator: 'Хижак',
    predatorHint: 'Яструб полює на зграю; боїди поблизу нього тікають. Повзунок «Яструби» задає, скільки їх.',
    pointer: 'Вказівник',
    pointerOff: 'Вимк.',
    pointerAttract: 'Притягувати',
    pointerRepel: 'Відштовхувати',
    pointerHint:
      '«Притягувати» чи «Відштовхувати»: натисніть і втримуйте на сцені — зграя летить до цієї точки (або від неї). Мишею: утримуйте Shift, щоб притягувати, або Alt, щоб відштовхувати.',
    obstacles: 'Перешкоди',
    obstaclesHint: 'Клацніть на сцені, щоб додати перешкоду — кулю, яку боїди облітають.',
    clearObstacles: 'Прибрати перешкоди',
    obstaclesFull: 'Більше перешкод додати не можна.',
    hintObstacles: 'клік додає перешкоду',
    canvasObstacles: 'Клацніть, щоб додати перешкоду.',
    canvasPointer: 'Коли ввімкнено вказівник, натисніть і втримуйте, щоб притягувати чи відштовхувати зграю.',
  },
  explain: {
    title: 'Як боїд вирішує, куди летіти',
    intro:
      'Кожен боїд бачить лише сусідів у межах свого *радіуса сприйняття* (і не бачить тих, хто просто позаду). Шістдесят разів на секунду він додає три поштовхи:',
    rules: [
      'відлітати від надто близьких сусідів, тим сильніше, чим вони ближче (відчуває їх довкола, навіть просто позаду).',
      'повертати в середньому напрямку, куди летять сусіди.',
      'прямувати до центру сусідів, слабше, поки хтось надто близько.',
    ],
    formula: 'v штрих дорівнює v плюс w s на S плюс w a на A плюс w c на C',
    body:
      '{S}, {A} і {C} — три вектори керування, а ваги {w_s}, {w_a}, {w_c} — це повзунки «Розділення», «Вирівнювання» і «Згуртованість». Кожен поштовх обмежений максимальною силою, але тримати дистанцію — найперше: усередині радіуса розділення поштовх росте, що ближче сусід (аж до десятикратної межі), а згуртованість поступається стільки ж разів, тож боїди тримають відстань, хоч як сильно збираються докупи. Поштовхи здебільшого повертають боїда (помножені на крок часу, вони змінюють напрям {v}), а швидкість повертається до крейсерської. Жоден боїд не веде: форма зграї виникає лише з цих локальних правил.',
    try:
      'Спробуйте: поставте «Вирівнювання» на 0 — і зграя розпадеться на рій; поставте «Згуртованість» на 0 — і групи розпливуться; збільште «Розділення» — і боїди розсиплються.',
    more: {
      title: 'Понад три правила',
      items: [
        ['Яструби', 'Яструб женеться за найближчими боїдами. Боїди в межах радіуса втечі різко відвертають і панікують (до подвійної найбільшої швидкості), тож зграя розривається і знову змикається позаду нього.'],
        ['Перешкоди', 'Кожен боїд дивиться вперед уздовж своєї швидкості; якщо цей промінь скоро влучить у кулю, боїд відвертає вздовж її поверхні.'],
        ['Ватажки', 'Ватажки летять замкненим маршрутом; кожного боїда тягне до найближчого з них, тож уся зграя йде цим маршрутом.'],
        ['Вказівник', 'Поки вказівник утримують натиснутим, кожного боїда тягне до цієї точки або відштовхує від неї.'],
        ['Вітер', 'Рівномірний поштовх, однаковий для всіх: зграя зберігає форму й дрейфує за вітром.'],
        ['Види', 'Вирівнювання й згуртованість діють лише всередині виду, розділення — між усіма, тож кілька зграй ділять небо й обтікають одна одну.'],
        ['Найближчі k', 'Справжні шпаки зважають приблизно на сім найближчих сусідів, хоч би як далеко ті були (Ballerini та ін., 2008), тож рідка зграя тримається разом так само, як щільна.'],
        ['2D', 'Плаский світ, вигляд згори, з якого починаються уроки: ті самі правила, усі z = 0.'],
      ],
    },
  },
  params: {
    count: ['Кількість', 'Скільки боїдів літає. Боїди додаються або зникають; решта лишається на місці.'],
    speed: ['Швидкість', 'Крейсерська швидкість. Боїд летить зі швидкістю від половини до 1,4 від неї.'],
    separation: ['Розділення', 'Вага відхилення від надто близьких сусідів.'],
    alignment: ['Вирівнювання', 'Вага повороту до середнього напрямку сусідів.'],
    cohesion: ['Згуртованість', 'Вага руху до центру сусідів.'],
    perception: ['Радіус сприйняття', 'Як далеко боїд бачить сусідів.'],
    separationRadius: [
      'Радіус розділення',
      'Сусіди, ближчі за цю відстань, відштовхують боїда (бачить він усе одно лише в межах радіуса сприйняття).',
    ],
    fieldOfView: ['Поле зору', 'Наскільки широко бачить боїд; сусідів у сліпій зоні позаду він не зважає, але тримає від них дистанцію.'],
    maxForce: [
      'Макс. сила',
      'Найсильніше кермування, яке може дати кожне правило: мала — ліниво й плавно, велика — смикано.',
    ],
    worldSize: [
      'Розмір світу',
      'Сторона кубічного світу. Змінюється разом із кількістю (та сама густина), доки ви її не задасте.',
    ],
    wrap: [
      'Замкнені краї',
      'Увімк.: боїд, що вилітає з одного боку, повертається з протилежного. Вимк.: м’які стіни повертають боїдів назад.',
    ],
    seed: ['Зерно', 'Початкове значення випадкових чисел: те саме зерно дає ту саму зграю.'],
    predators: [
      'Яструби',
      'Яструби кружляють і пікірують на зграю. Боїди поблизу яструба тікають у паніці (до подвійної найбільшої швидкості).',
    ],
    predatorSpeed: [
      'Швидкість яструба',
      'Як швидко літають яструби. Швидше за крейсерську швидкість боїдів, повільніше за їхню паніку.',
    ],
    fleeRadius: ['Радіус втечі', 'Боїди, ближчі за цю відстань до яструба, тікають від нього.'],
    leaders: [
      'Ватажки',
      'Ватажки летять замкненим маршрутом крізь світ; кожного боїда тягне до найближчого з них.',
    ],
    leaderWeight: ['Слідувати за ватажком', 'Вага руху до найближчого ватажка.'],
    pointerStrength: [
      'Тяжіння вказівника',
      'Вага руху до вказівника (або від нього), поки його утримують натиснутим.',
    ],
    windStrength: ['Вітер', 'Рівномірний поштовх, який відчуває кожен боїд, однаковий усюди.'],
    windHeading: ['Напрямок вітру', 'Куди дме вітер у площині x-y: 0° — це +x, 90° — це +y.'],
    windElevation: [
      'Нахил вітру',
      'Наскільки круто вітер дме вгору (+) чи вниз (−) уздовж осі z. У 2D не враховується.',
    ],
    speciesCount: [
      'Види',
      'Кількість видів боїдів. Кожен вид вирівнюється й гуртується лише зі своїми, але тримає дистанцію з усіма.',
    ],
    flat: [
      'Плаский світ (2D)',
      'Увімк.: плаский світ, вигляд згори (усі z = 0). Перемикання розсипає зграю заново.',
    ],
    topological: [
      'Лише k найближчих',
      'Увімк.: кожен боїд зважає на k найближчих сусідів, хоч би як далеко вони були, як шпаки (Ballerini та ін., 2008). Вимк.: на всіх у радіусі сприйняття.',
    ],
    nearestK: ['Найближчі k', 'Скільки найближчих сусідів ураховує боїд, коли ввімкнено «Лише k найближчих».'],
  },
  presets: {
    defaults: ['Типові', 'Проста модель зі значеннями за замовчуванням.'],
    murmuration: ['Мурмурація', 'Як шпаки: сильне вирівнювання, м’яка згуртованість, огляд навколо й швидкий політ: одна велика зграя, що мчить небом як одне ціле.'],
    ribbons: ['Вільні стрічки', 'Сильне вирівнювання, слабка згуртованість, короткий зір: довгі тонкі потоки, що розходяться й зливаються.'],
    arrows: ['Стріли', 'Сильні вирівнювання й згуртованість, короткий зір, швидкий політ: кілька окремих груп, кожна летить своїм шляхом.'],
    fishBall: ['Рибна куля', 'Сильна згуртованість, сліпа зона позаду й повільний хід: куля, що кружляє навколо свого центру.'],
  },
  units: { boids: 'боїдів', units: 'од.', 'units/s': 'од./с', 'units/s²': 'од./с²' },
};

const pl = {
  ui: {
    pageTitle: 'Boidy — stado w Rust, WebAssembly i WebGL2',
    heading: 'Boidy',
    tagline: 'Trzy proste reguły, żadnego przywódcy — i powstaje stado.',
    language: 'Język',
    simulation: 'Symulacja',
    panel: 'Sterowanie',
    controls: 'Parametry stada',
    pause: 'Pauza',
    play: 'Start',
    step: 'Krok',
    rebuild: 'Od nowa',
    pauseTitle: 'Wstrzymaj lub wznów stado (Spacja)',
    stepTitle: 'Jeden krok o 1/60 s (podczas pauzy)',
    rebuildTitle: 'Rozrzuć boidy od nowa z obecnymi ustawieniami (R)',
    paused: 'Pauza',
    copyLink: 'Kopiuj link',
    copyLinkTitle: 'Skopiuj link, który otwiera to stado z tymi samymi ustawieniami i ziarnem',
    linkCopied: 'Link skopiowany.',
    linkManual: 'Skopiuj ten link:',
    linkField: 'Link do tych ustawień',
    fps: 'kl./s',
    sim: 'Sym.',
    boids: 'Boidów',
    ms: 'ms',
    on: 'Wł.',
    off: 'Wył.',
    canvas:
      'Widok 3D stada. Przeciągnij, aby obracać; przewiń lub zsuń palce, aby przybliżyć stado; kliknij dwukrotnie, aby pokazać całe stado. Z klawiatury: strzałki obracają, + i − przybliżają, F pokazuje stado, 0 całą przestrzeń, Spacja to pauza, R — od nowa.',
    hint: 'Przeciągnij — obrót · kółko lub szczypanie — zoom · dwuklik — pokaż stado · Spacja — pauza · R — od nowa',
    noWebglTitle: 'Ta przeglądarka nie potrafi narysować stada.',
    noWebglDetail:
      'Ta przeglądarka nie obsługuje WebGL2. Spróbuj aktualnej wersji Firefoksa, Chrome’a, Edge’a lub Safari i upewnij się, że w ustawieniach przeglądarki włączone jest przyspieszenie sprzętowe.',
    errorTitle: 'Symulacja zatrzymała się z powodu błędu.',
    errorReload: '(Odśwież stronę, aby zacząć od nowa.)',
    contextLost: 'Rysowanie zatrzymane: przeglądarka odebrała temu stadu kontekst graficzny.',
    tooMany: 'Na tej stronie rysuje się naraz zbyt wiele stad.',
    resume: 'Kliknij, aby wznowić',
    noscript: 'Ta symulacja wymaga JavaScriptu i WebAssembly.',
    presets: 'Gotowe ustawienia',
    presetsHint: 'Jedno kliknięcie ustawia naraz wagi reguł, promienie, pole widzenia i prędkość; suwaki pokazują nowe wartości.',
    scene: 'Na scenie',
    predator: 'Drapieżnik',
    predatorHint: 'Jastrząb poluje na stado; boidy blisko niego uciekają. Suwak Jastrzębie ustala ich liczbę.',
    pointer: 'Wskaźnik',
    pointerOff: 'Wył.',
    pointerAttract: 'Przyciągaj',
    pointerRepel: 'Odpychaj',
    pointerHint:
      'Przyciągaj lub Odpychaj: naciśnij i przytrzymaj na scenie, a stado poleci do tego punktu (lub od niego). Myszą: przytrzymaj Shift, aby przyciągać, albo Alt, aby odpychać.',
    obstacles: 'Przeszkody',
    obstaclesHint: 'Kliknij scenę, aby dodać przeszkodę: kulę, którą boidy omijają.',
    clearObstacles: 'Usuń przeszkody',
    obstaclesFull: 'Nie da się dodać więcej przeszkód.',
    hintObstacles: 'kliknięcie dodaje przeszkodę',
    canvasObstacles: 'Kliknij, aby dodać przeszkodę.',
    canvasPointer: 'Gdy wskaźnik jest włączony, naciśnij i przytrzymaj, aby przyciągać lub odpychać stado.',
  },
  explain: {
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
  },
  params: {
    count: ['Liczba', 'Ile boidów lata. Boidy są dodawane lub usuwane; pozostałe zostają na miejscu.'],
    speed: ['Prędkość', 'Prędkość przelotowa. Boid leci z prędkością od połowy do 1,4 tej wartości.'],
    separation: ['Separacja', 'Waga odsuwania się od zbyt bliskich sąsiadów.'],
    alignment: ['Wyrównanie', 'Waga skręcania w stronę średniego kierunku sąsiadów.'],
    cohesion: ['Spójność', 'Waga kierowania się do środka sąsiadów.'],
    perception: ['Promień percepcji', 'Jak daleko boid widzi sąsiadów.'],
    separationRadius: [
      'Promień separacji',
      'Sąsiedzi bliżsi niż ta odległość odpychają boida (i tak widzi on tylko w promieniu percepcji).',
    ],
    fieldOfView: ['Pole widzenia', 'Jak szeroko widzi boid; sąsiadów w martwej strefie za nim pomija, ale nadal trzyma od nich odstęp.'],
    maxForce: [
      'Maks. siła',
      'Najsilniejsze sterowanie, jakie może dać każda reguła: mała — leniwie i płynnie, duża — nerwowo.',
    ],
    worldSize: [
      'Rozmiar świata',
      'Bok sześciennego świata. Zmienia się z liczbą boidów (ta sama gęstość), dopóki go nie ustawisz.',
    ],
    wrap: [
      'Zawijanie krawędzi',
      'Wł.: boid wylatujący z jednej strony wraca z przeciwnej. Wył.: miękkie ściany zawracają boidy.',
    ],
    seed: ['Ziarno', 'Punkt startowy liczb losowych: to samo ziarno daje to samo stado.'],
    predators: [
      'Jastrzębie',
      'Jastrzębie krążą i nurkują na stado. Boidy blisko jastrzębia uciekają w panice (do dwukrotności swojej największej prędkości).',
    ],
    predatorSpeed: [
      'Prędkość jastrzębia',
      'Jak szybko latają jastrzębie. Szybciej niż prędkość przelotowa boidów, wolniej niż ich panika.',
    ],
    fleeRadius: ['Promień ucieczki', 'Boidy bliżej jastrzębia niż ta odległość uciekają przed nim.'],
    leaders: [
      'Przywódcy',
      'Przywódcy lecą zamkniętą trasą przez świat; każdy boid jest przyciągany do najbliższego z nich.',
    ],
    leaderWeight: ['Podążaj za przywódcą', 'Waga kierowania się do najbliższego przywódcy.'],
    pointerStrength: [
      'Przyciąganie wskaźnika',
      'Waga kierowania się do wskaźnika (lub od niego), dopóki jest wciśnięty.',
    ],
    windStrength: ['Wiatr', 'Stałe pchnięcie, które czuje każdy boid, wszędzie takie samo.'],
    windHeading: ['Kierunek wiatru', 'Dokąd wieje wiatr w płaszczyźnie x-y: 0° to +x, 90° to +y.'],
    windElevation: [
      'Nachylenie wiatru',
      'Jak stromo wiatr wieje w górę (+) lub w dół (−) wzdłuż osi z. W 2D pomijane.',
    ],
    speciesCount: [
      'Gatunki',
      'Liczba gatunków boidów. Każdy wyrównuje i skupia się tylko z własnym gatunkiem, ale trzyma dystans od wszystkich.',
    ],
    flat: [
      'Płaski świat (2D)',
      'Wł.: płaski świat widziany z góry (każde z = 0). Przełączenie rozrzuca stado od nowa.',
    ],
    topological: [
      'Tylko k najbliższych',
      'Wł.: każdy boid bierze pod uwagę k najbliższych sąsiadów, niezależnie od odległości, jak szpaki (Ballerini i in., 2008). Wył.: wszystkich w promieniu percepcji.',
    ],
    nearestK: [
      'Najbliższe k',
      'Ilu najbliższych sąsiadów bierze pod uwagę boid, gdy włączone jest „Tylko k najbliższych”.',
    ],
  },
  presets: {
    defaults: ['Domyślne', 'Prosty model z domyślnymi wartościami z tabeli.'],
    murmuration: ['Murmuracja', 'Jak szpaki: silne wyrównanie, łagodna spójność, widok dookoła i szybki lot: jedno wielkie stado, które przemierza niebo jak jedno.'],
    ribbons: ['Luźne wstęgi', 'Silne wyrównanie, słaba spójność, krótki wzrok: długie, cienkie strumienie, które się rozchodzą i łączą.'],
    arrows: ['Klucze', 'Silne wyrównanie i spójność, krótki wzrok, szybki lot: kilka osobnych grup, każda leci w swoją stronę.'],
    fishBall: ['Ławica w kuli', 'Silna spójność, martwe pole z tyłu i wolne tempo: kula, która krąży wokół swojego środka.'],
  },
  units: { boids: 'boidów', units: 'j.', 'units/s': 'j./s', 'units/s²': 'j./s²' },
};

const ru = {
  ui: {
    pageTitle: 'Боиды — стая на Rust, WebAssembly и WebGL2',
    heading: 'Боиды',
    tagline: 'Три простых правила, никакого вожака — и появляется стая.',
    language: 'Язык',
    simulation: 'Симуляция',
    panel: 'Управление',
    controls: 'Параметры стаи',
    pause: 'Пауза',
    play: 'Пуск',
    step: 'Шаг',
    rebuild: 'Заново',
    pauseTitle: 'Приостановить или продолжить (Пробел)',
    stepTitle: 'Один шаг на 1/60 с (на паузе)',
    rebuildTitle: 'Рассыпать боидов заново с текущими настройками (R)',
    paused: 'Пауза',
    copyLink: 'Копировать ссылку',
    copyLinkTitle: 'Скопировать ссылку, открывающую эту стаю с теми же настройками и зерном',
    linkCopied: 'Ссылка скопирована.',
    linkManual: 'Скопируйте эту ссылку:',
    linkField: 'Ссылка на эти настройки',
    fps: 'кадр/с',
    sim: 'Модель',
    boids: 'Боидов',
    ms: 'мс',
    on: 'Вкл.',
    off: 'Выкл.',
    canvas:
      '3D-вид стаи. Перетаскивайте, чтобы вращать; прокрутите или сведите пальцы, чтобы приблизить стаю; дважды щёлкните, чтобы показать всю стаю. С клавиатуры: стрелки вращают, + и − масштабируют, F показывает стаю, 0 — всё пространство, Пробел — пауза, R — заново.',
    hint: 'Тяните — вращение · колесо или щипок — масштаб · двойной щелчок — показать стаю · Пробел — пауза · R — заново',
    noWebglTitle: 'Этот браузер не может нарисовать стаю.',
    noWebglDetail:
      'В этом браузере нет WebGL2. Попробуйте современную версию Firefox, Chrome, Edge или Safari и убедитесь, что в настройках браузера включено аппаратное ускорение.',
    errorTitle: 'Симуляция остановилась из-за ошибки.',
    errorReload: '(Перезагрузите страницу, чтобы начать заново.)',
    contextLost: 'Рисование остановилось: браузер забрал графический контекст этой стаи.',
    tooMany: 'Слишком много стай на этой странице рисуется одновременно.',
    resume: 'Нажмите, чтобы продолжить',
    noscript: 'Для этой симуляции нужны JavaScript и WebAssembly.',
    presets: 'Готовые наборы',
    presetsHint: 'Один щелчок задаёт сразу веса правил, радиусы, поле зрения и скорость; ползунки показывают новые значения.',
    scene: 'В сцене',
    predator: 'Хищник',
    predatorHint: 'Ястреб охотится на стаю; боиды рядом с ним убегают. Ползунок «Ястребы» задаёт, сколько их.',
    pointer: 'Указатель',
    pointerOff: 'Выкл.',
    pointerAttract: 'Притягивать',
    pointerRepel: 'Отталкивать',
    pointerHint:
      '«Притягивать» или «Отталкивать»: нажмите и удерживайте на сцене — стая летит к этой точке (или от неё). Мышью: удерживайте Shift, чтобы притягивать, или Alt, чтобы отталкивать.',
    obstacles: 'Препятствия',
    obstaclesHint: 'Щёлкните по сцене, чтобы добавить препятствие — шар, который боиды облетают.',
    clearObstacles: 'Убрать препятствия',
    obstaclesFull: 'Больше препятствий добавить нельзя.',
    hintObstacles: 'щелчок добавляет препятствие',
    canvasObstacles: 'Щёлкните, чтобы добавить препятствие.',
    canvasPointer: 'Когда указатель включён, нажмите и удерживайте, чтобы притягивать или отталкивать стаю.',
  },
  explain: {
    title: 'Как боид решает, куда лететь',
    intro:
      'Каждый боид видит только соседей внутри своего *радиуса восприятия* (и не видит тех, кто прямо позади). Шестьдесят раз в секунду он складывает три толчка:',
    rules: [
      'отдаляться от слишком близких соседей, тем сильнее, чем они ближе (чувствует их вокруг, даже прямо позади).',
      'поворачивать в среднем направлении полёта соседей.',
      'двигаться к центру соседей, слабее, пока кто-то слишком близко.',
    ],
    formula: 'v штрих равно v плюс w s на S плюс w a на A плюс w c на C',
    body:
      '{S}, {A} и {C} — три вектора управления, а веса {w_s}, {w_a}, {w_c} — это ползунки «Разделение», «Выравнивание» и «Сплочённость». Каждый толчок ограничен максимальной силой, но держать дистанцию — прежде всего: внутри радиуса разделения толчок растёт, чем ближе сосед (вплоть до десятикратного предела), а сплочённость уступает во столько же раз, поэтому боиды держат дистанцию, как бы сильно ни собирались вместе. Толчки в основном поворачивают боида (умноженные на шаг времени, они меняют направление {v}), а его скорость возвращается к крейсерской. Ни один боид не ведёт: форма стаи возникает только из этих локальных правил.',
    try:
      'Попробуйте: поставьте «Выравнивание» на 0 — и стая распадётся в рой; поставьте «Сплочённость» на 0 — и группы разойдутся; увеличьте «Разделение» — и боиды рассыплются.',
    more: {
      title: 'Больше трёх правил',
      items: [
        ['Ястребы', 'Ястреб гонится за ближайшими боидами. Боиды в пределах радиуса бегства резко отворачивают и паникуют (до двойной наибольшей скорости), так что стая разлетается и снова смыкается позади него.'],
        ['Препятствия', 'Каждый боид смотрит вперёд вдоль своей скорости; если этот луч скоро попадёт в шар, боид отворачивает вдоль его поверхности.'],
        ['Вожаки', 'Вожаки летят по замкнутому маршруту; каждого боида тянет к ближайшему из них, так что вся стая следует маршруту.'],
        ['Указатель', 'Пока указатель удерживают нажатым, каждого боида тянет к этой точке или отталкивает от неё.'],
        ['Ветер', 'Постоянный толчок, одинаковый для всех: стая сохраняет форму и дрейфует по ветру.'],
        ['Виды', 'Выравнивание и сплочённость действуют только внутри вида, разделение — между всеми, так что несколько стай делят небо и обтекают друг друга.'],
        ['Ближайшие k', 'Настоящие скворцы учитывают около семи ближайших соседей, как бы далеко те ни были (Ballerini и др., 2008), поэтому редкая стая держится вместе так же, как плотная.'],
        ['2D', 'Плоский мир, вид сверху, с которого начинаются уроки: те же правила, все z = 0.'],
      ],
    },
  },
  params: {
    count: ['Количество', 'Сколько боидов летает. Боиды добавляются или убираются; остальные остаются на месте.'],
    speed: ['Скорость', 'Крейсерская скорость. Боид летит со скоростью от половины до 1,4 от неё.'],
    separation: ['Разделение', 'Вес отклонения от слишком близких соседей.'],
    alignment: ['Выравнивание', 'Вес поворота к среднему направлению соседей.'],
    cohesion: ['Сплочённость', 'Вес движения к центру соседей.'],
    perception: ['Радиус восприятия', 'Как далеко боид видит соседей.'],
    separationRadius: [
      'Радиус разделения',
      'Соседи ближе этого расстояния отталкивают боида (видит он всё равно только в пределах радиуса восприятия).',
    ],
    fieldOfView: ['Поле зрения', 'Насколько широко видит боид; соседей в слепой зоне позади он не учитывает, но держит от них дистанцию.'],
    maxForce: [
      'Макс. сила',
      'Самое сильное управление, которое может дать каждое правило: малая — лениво и плавно, большая — дёргано.',
    ],
    worldSize: [
      'Размер мира',
      'Сторона кубического мира. Меняется вместе с количеством (та же плотность), пока вы её не зададите.',
    ],
    wrap: [
      'Замкнутые края',
      'Вкл.: боид, вылетающий с одной стороны, возвращается с противоположной. Выкл.: мягкие стены разворачивают боидов.',
    ],
    seed: ['Зерно', 'Начальное значение случайных чисел: то же зерно даёт ту же стаю.'],
    predators: [
      'Ястребы',
      'Ястребы кружат и пикируют на стаю. Боиды рядом с ястребом убегают в панике (до двойной наибольшей скорости).',
    ],
    predatorSpeed: [
      'Скорость ястреба',
      'Как быстро летают ястребы. Быстрее крейсерской скорости боидов, медленнее их паники.',
    ],
    fleeRadius: ['Радиус бегства', 'Боиды ближе этого расстояния к ястребу убегают от него.'],
    leaders: [
      'Вожаки',
      'Вожаки летят по замкнутому маршруту через мир; каждого боида тянет к ближайшему из них.',
    ],
    leaderWeight: ['Следовать за вожаком', 'Вес движения к ближайшему вожаку.'],
    pointerStrength: [
      'Притяжение указателя',
      'Вес движения к указателю (или от него), пока его удерживают нажатым.',
    ],
    windStrength: ['Ветер', 'Постоянный толчок, который чувствует каждый боид, везде одинаковый.'],
    windHeading: ['Направление ветра', 'Куда дует ветер в плоскости x-y: 0° — это +x, 90° — это +y.'],
    windElevation: [
      'Наклон ветра',
      'Насколько круто ветер дует вверх (+) или вниз (−) вдоль оси z. В 2D не учитывается.',
    ],
    speciesCount: [
      'Виды',
      'Количество видов боидов. Каждый вид выравнивается и собирается только со своими, но держит дистанцию со всеми.',
    ],
    flat: [
      'Плоский мир (2D)',
      'Вкл.: плоский мир, вид сверху (все z = 0). Переключение рассыпает стаю заново.',
    ],
    topological: [
      'Только k ближайших',
      'Вкл.: каждый боид учитывает k ближайших соседей, как бы далеко они ни были, как скворцы (Ballerini и др., 2008). Выкл.: всех в радиусе восприятия.',
    ],
    nearestK: ['Ближайшие k', 'Сколько ближайших соседей учитывает боид, когда включено «Только k ближайших».'],
  },
  presets: {
    defaults: ['По умолчанию', 'Простая модель со значениями по умолчанию.'],
    murmuration: ['Мурмурация', 'Как скворцы: сильное выравнивание, мягкая сплочённость, обзор вокруг и быстрый полёт: одна большая стая, что проносится по небу как одно целое.'],
    ribbons: ['Свободные ленты', 'Сильное выравнивание, слабая сплочённость, короткое зрение: длинные тонкие потоки, которые расходятся и сливаются.'],
    arrows: ['Стрелы', 'Сильные выравнивание и сплочённость, короткое зрение, быстрый полёт: несколько отдельных групп, каждая летит своим путём.'],
    fishBall: ['Рыбный шар', 'Сильная сплочённость, слепая зона сзади и медленный ход: шар, кружащий вокруг своего центра.'],
  },
  units: { boids: 'боидов', units: 'ед.', 'units/s': 'ед./с', 'units/s²': 'ед./с²' },
};

export const STRINGS = { en, uk, pl, ru };
for (const lang of LANGS) Object.assign(STRINGS[lang].ui, PANEL_TEXT[lang], INSTRUMENT_TEXT[lang]);

/**
 * The first supported language among `candidates` (BCP 47 tags such as "uk-UA"; empty and
 * unknown ones are skipped), else English.
 */
export function pickLang(candidates) {
  for (const tag of candidates) {
    if (typeof tag !== 'string' || !tag) continue;
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (LANGS.includes(primary)) return primary;
  }
  return 'en';
}

/** Text for one language: `ui(key)`, `param(spec)`, `preset(preset)`, `unit(spec)`, `explain`. */
export function texts(lang) {
  const table = STRINGS[lang] ?? en;
  return {
    lang: STRINGS[lang] ? lang : 'en',
    ui: (key) => table.ui[key] ?? en.ui[key] ?? key,
    /** [label, description] of a parameter: this language's, else the table's English. */
    param: (spec) => table.params[spec.name] ?? [spec.label, spec.description],
    /** [label, description] of a preset (from `Flock.presets()`): this language's, else English. */
    preset: (preset) => table.presets?.[preset.name] ?? [preset.label, preset.description],
    unit: (unit) => (unit ? (table.units[unit] ?? unit) : ''),
    explain: table.explain,
  };
}
