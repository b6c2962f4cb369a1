// The H5P content type H5P.BoidsFlock (issue 45): a teacher's lesson as a .h5p file that
// Moodle, WordPress and other H5P hosts take (www/package/h5p.js builds it). H5P loads this
// file as a classic script in its iframe, with H5P.EventDispatcher and jQuery already there;
// `attach` puts a <boids-flock> with the lesson's attributes (content.json) in the frame and
// imports the lesson bundle (boids-lesson.js, one module with the wasm inside, copied into
// this library's folder), and everything the element tells becomes an xAPI statement sent
// through H5P's own dispatcher, which the host records (Moodle: its gradebook's reports, or
// an LRS; docs/embedding.md "Moodle (H5P)"):
//
//   element event        statement verb                                object
//   boids-change (user)  http://adlnet.gov/expapi/verbs/interacted      the lesson
//   boids-preset (user)  http://id.tincanapi.com/verb/selected          the lesson
//   boids-select         http://id.tincanapi.com/verb/selected          the lesson
//   boids-seek (user)    https://w3id.org/xapi/video/verbs/seeked       the lesson
//   boids-answer         http://adlnet.gov/expapi/verbs/answered        the prompt (long-fill-in)
//   boids-experiment     http://adlnet.gov/expapi/verbs/completed       the experiment
//   progress complete    http://adlnet.gov/expapi/verbs/completed       the lesson
//
// the same verbs as the iframe bridge's `boids:event`s (www/embed-bridge.js). What changed is
// in result.extensions under EXT's IRIs. A script's own changes (source "api": the lesson's
// attributes being applied at start) are not the student's and are not told.
(function (H5P) {
  'use strict';

  var LIBRARY = 'H5P.BoidsFlock-1.0';
  /** A dragged slider fires a change per step; one statement once it is still this long, ms (as embed-bridge.js). */
  var CHANGE_QUIET = 500;
  var VERBS = {
    selected: { id: 'http://id.tincanapi.com/verb/selected', display: { 'en-US': 'selected' } },
    seeked: { id: 'https://w3id.org/xapi/video/verbs/seeked', display: { 'en-US': 'seeked' } },
  };
  /** Extension keys (IRIs, as xAPI wants): a URN, naming no site that could change hands. */
  var EXT = {
    parameter: 'urn:boids-flock:xapi:parameter',
    value: 'urn:boids-flock:xapi:value',
    preset: 'urn:boids-flock:xapi:preset',
    boid: 'urn:boids-flock:xapi:boid',
    time: 'urn:boids-flock:xapi:time',
    experiment: 'urn:boids-flock:xapi:experiment',
  };
  var PROMPT_NAMES = { predict: 'Predict', notice: 'Notice', try: 'Try' };

  /** The attributes of content.json, [[name, value], ...] (or an object), checked. */
  function attributesOf(params) {
    var given = params && params.attributes;
    var list = Array.isArray(given) ? given : given && typeof given === 'object' ? Object.keys(given).map(function (k) { return [k, given[k]]; }) : null;
    if (!list) throw new TypeError('H5P.BoidsFlock: content.json needs "attributes": [[name, value], ...], got ' + JSON.stringify(given));
    return list.map(function (pair) {
      if (!Array.isArray(pair) || typeof pair[0] !== 'string' || !/^[a-z][a-z0-9-]*$/.test(pair[0])) {
        throw new TypeError('H5P.BoidsFlock: an attribute must be [name, value] with a lower-case name, got ' + JSON.stringify(pair));
      }
      return [pair[0], String(pair[1])];
    });
  }

  H5P.BoidsFlock = function (params, contentId, extras) {
    H5P.EventDispatcher.call(this);
    this.contentId = contentId;
    this.extras = extras || {};
    this.attributes = attributesOf(params);
    this.pending = {};
    this.completed = false;
  };
  H5P.BoidsFlock.prototype = Object.create(H5P.EventDispatcher.prototype);
  H5P.BoidsFlock.prototype.constructor = H5P.BoidsFlock;

  H5P.BoidsFlock.prototype.attach = function ($container) {
    var self = this;
    var container = $container[0] || $container;
    container.classList.add('h5p-boids-flock');
    var element = document.createElement('boids-flock');
    self.attributes.forEach(function (pair) { element.setAttribute(pair[0], pair[1]); });
    container.appendChild(element);
    self.element = element;
    self.listen(element);
    // The bundle is a module (top-level await): import(), from this library's folder, as a full URL.
    var url = new URL(H5P.getLibraryPath(LIBRARY) + '/boids-lesson.js', document.baseURI).href;
    self.ready = import(url).then(function (lesson) {
      self.stopWatching = lesson.watchLesson(element, function (progress) { self.progressed(progress); });
      // The frame's height follows the element's (a group opened, the panel wrapping).
      if (typeof ResizeObserver === 'function') new ResizeObserver(function () { self.trigger('resize'); }).observe(element);
      self.trigger('resize');
      return element;
    }, function (error) {
      var note = document.createElement('p');
      note.className = 'h5p-boids-flock-error';
      note.textContent = 'The flock could not load: ' + error.message;
      container.appendChild(note);
      throw error;
    });
  };

  /** The element's events, as statements. */
  H5P.BoidsFlock.prototype.listen = function (element) {
    var self = this;
    element.addEventListener('boids-change', function (event) {
      var d = event.detail;
      if (d.source === 'api') return;
      self.settled('change ' + d.name, function () {
        var ext = {};
        ext[EXT.parameter] = d.name;
        ext[EXT.value] = d.value;
        self.send('interacted', { extensions: ext });
      });
    });
    element.addEventListener('boids-preset', function (event) {
      if (event.detail.source === 'api') return;
      var ext = {};
      ext[EXT.preset] = event.detail.name;
      self.send(VERBS.selected, { extensions: ext });
    });
    element.addEventListener('boids-select', function (event) {
      if (event.detail.id == null) return; // let go: nothing chosen
      var ext = {};
      ext[EXT.boid] = event.detail.id;
      self.send(VERBS.selected, { extensions: ext });
    });
    element.addEventListener('boids-seek', function (event) {
      if (event.detail.source === 'api') return;
      self.settled('seek', function () {
        var ext = {};
        ext[EXT.time] = event.detail.time;
        self.send(VERBS.seeked, { extensions: ext });
      });
    });
    element.addEventListener('boids-answer', function (event) {
      var name = event.detail.name;
      if (!PROMPT_NAMES[name]) return;
      self.send('answered', { response: String(event.detail.text), completion: event.detail.text !== '' }, self.part('prompt-' + name, PROMPT_NAMES[name], {
        type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
        interactionType: 'long-fill-in',
      }));
    });
    element.addEventListener('boids-experiment', function (event) {
      var ext = {};
      ext[EXT.experiment] = event.detail;
      self.send('completed', { completion: true, extensions: ext }, self.part('experiment-' + event.detail.param, 'Experiment: ' + event.detail.param, {}));
    });
  };

  /** Runs `post` once calls under `key` have been still for CHANGE_QUIET. */
  H5P.BoidsFlock.prototype.settled = function (key, post) {
    var pending = this.pending;
    clearTimeout(pending[key]);
    pending[key] = setTimeout(function () {
      delete pending[key];
      post();
    }, CHANGE_QUIET);
  };

  /** The lesson is complete (progress.js): once, 'completed' with completion true. */
  H5P.BoidsFlock.prototype.progressed = function (progress) {
    if (!progress.complete || this.completed) return;
    this.completed = true;
    this.send('completed', { completion: true });
  };

  /**
   * An activity inside the lesson (a prompt, an experiment): its object, the lesson its
   * parent. `fragment` is added to the lesson's IRI.
   */
  H5P.BoidsFlock.prototype.part = function (fragment, title, definition) {
    var lesson = this.createXAPIEventTemplate('experienced').data.statement.object;
    definition.name = { 'en-US': title };
    return {
      object: { id: lesson.id.split('#')[0] + '#' + fragment, objectType: 'Activity', definition: definition },
      context: { contextActivities: { parent: [{ id: lesson.id, objectType: 'Activity' }] } },
    };
  };

  /** One statement: `verb` (an H5P verb's name or { id, display }), `result`, `parts` replacing the object. */
  H5P.BoidsFlock.prototype.send = function (verb, result, parts) {
    var event = this.createXAPIEventTemplate(verb, parts);
    if (result) event.data.statement.result = result;
    this.trigger(event);
  };

  /** H5P's API for a host's reports: a lesson has no score; it is done when complete. */
  H5P.BoidsFlock.prototype.getAnswerGiven = function () {
    return this.completed;
  };
})(H5P);
