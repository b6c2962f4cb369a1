// The algorithm lab's words in Polish (www/lab/cost-curve.js loads one table, on demand).
// {name} marks a value filled in.

export default {
  title: 'Ile pracy kosztuje szukanie sąsiadów?',
  start: 'Zmierz na tym urządzeniu',
  stop: 'Zatrzymaj',
  idle: 'Naciśnij przycisk: wątek w tle prowadzi stado każdą metodą, od 250 do 16 000 boidów (około pół minuty).',
  measured: '{method}, {count} boidów: {ms} ms na krok.',
  done: 'Zmierzono w {seconds} s.',
  stopped: 'Zatrzymano. To, co zmierzono, zostaje.',
  failed: 'Pomiar się nie udał: {error}',
  methods: { naive: 'Każda para (naiwnie)', grid: 'Równomierna siatka', morton: 'Porządek Mortona' },
  axisCount: 'boidy (N), skala logarytmiczna',
  axisMs: 'ms na krok',
  axisChecks: 'sprawdzeń odległości na krok',
  plotLabel: 'Dwa wykresy w skali log-log: milisekundy i sprawdzenia odległości na krok w zależności od liczby boidów, dla każdego sposobu szukania sąsiadów.',
  slope: '{method}: sprawdzenia rosną jak N do potęgi {checks}, czas jak N do potęgi {time}.',
  tableCaption: 'Klatki na sekundę: tabela z tekstów oraz kroki na sekundę (sam krok) na tym urządzeniu',
  colCount: 'Boidy',
  colTextsNaive: 'Teksty: naiwnie',
  colTextsGrid: 'Teksty: hasz przestrzenny',
  colHereNaive: 'Tutaj: naiwnie',
  colHereGrid: 'Tutaj: siatka',
  csv: 'Pobierz CSV',
  png: 'Pobierz PNG',
};
