// The explanation ("How it works") in English: loaded with www/panel/explain.js only when
// a reader first opens it (texts.js `explain`), never with the page. Inline marks: *emphasis*,
// {v} a variable, {w_s} a variable with a subscript (rendered as DOM nodes, never as HTML).

export default {
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
};
