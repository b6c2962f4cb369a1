//! Tests of the JavaScript-facing `Flock` (`boids::web::Flock`), run in headless Chromium:
//! `cargo test --target wasm32-unknown-unknown --test web` (see scripts/test.sh,
//! .cargo/config.toml and webdriver.json). Natively this file compiles to nothing.
#![cfg(target_arch = "wasm32")]

use boids::web::Flock;
use js_sys::{Array, Float32Array, Function, Reflect};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// The parameters the page turns into sliders.
const SLIDERS: [&str; 6] = [
    "count",
    "speed",
    "separation",
    "alignment",
    "cohesion",
    "perception",
];

type Getter = fn(&Flock) -> f64;
type Setter = fn(&mut Flock, &JsValue) -> Result<f64, JsValue>;

/// The real-valued parameters with their Rust getter/setter and documented range.
fn real_params() -> Vec<(&'static str, Getter, Setter, f64, f64)> {
    vec![
        ("speed", Flock::speed, Flock::setSpeed, 1.0, 30.0),
        (
            "separation",
            Flock::separation,
            Flock::setSeparation,
            0.0,
            3.0,
        ),
        ("alignment", Flock::alignment, Flock::setAlignment, 0.0, 3.0),
        ("cohesion", Flock::cohesion, Flock::setCohesion, 0.0, 3.0),
        (
            "perception",
            Flock::perception,
            Flock::setPerception,
            1.0,
            12.0,
        ),
    ]
}

/// A JavaScript number.
fn js(value: f64) -> JsValue {
    JsValue::from_f64(value)
}

fn flock(count: f64) -> Flock {
    Flock::new(&js(count), &js(12345.0)).expect("a finite count builds a flock")
}

fn get(object: &JsValue, key: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(key)).expect("Reflect.get on an object")
}

fn number(object: &JsValue, key: &str) -> f64 {
    get(object, key)
        .as_f64()
        .unwrap_or_else(|| panic!("field {key} is not a number"))
}

fn string(object: &JsValue, key: &str) -> String {
    get(object, key)
        .as_string()
        .unwrap_or_else(|| panic!("field {key} is not a string"))
}

/// Positions as a Vec, checking the JS array's length and that every value is finite.
fn positions(flock: &Flock) -> Vec<f32> {
    let array: Float32Array = flock.positions();
    let values = array.to_vec();
    assert_eq!(
        values.len(),
        3 * flock.count() as usize,
        "positions() must hold x, y, z for each boid"
    );
    assert!(
        values.iter().all(|v| v.is_finite()),
        "positions() holds a non-finite value"
    );
    values
}

/// The x coordinates, sorted: comparable across steps even though a step reorders boids.
fn sorted_xs(values: &[f32]) -> Vec<f32> {
    let mut xs: Vec<f32> = values.iter().step_by(3).copied().collect();
    xs.sort_by(f32::total_cmp);
    xs
}

fn assert_range_error(result: Result<f64, JsValue>, what: &str) {
    let error = result.expect_err(&format!("{what} must throw"));
    assert!(
        error.is_instance_of::<js_sys::RangeError>(),
        "{what} must throw a RangeError, got {error:?}"
    );
}

#[wasm_bindgen_test]
fn constructor_clamps_count_and_keeps_the_seed() {
    let small = Flock::new(&js(1.0), &js(7.0)).unwrap();
    assert_eq!(small.count(), 2.0, "count is clamped to its minimum");
    assert_eq!(small.seed(), 7.0);

    let rounded = Flock::new(&js(123.6), &js(1.0)).unwrap();
    assert_eq!(rounded.count(), 124.0, "count is rounded to a whole number");
    assert_eq!(positions(&rounded).len(), 3 * 124);

    let unseeded = Flock::new(&js(60.0), &JsValue::UNDEFINED).unwrap();
    let seed = unseeded.seed();
    assert!(
        seed.is_finite() && seed >= 0.0 && seed.fract() == 0.0,
        "a drawn seed is a whole number, got {seed}"
    );
}

#[wasm_bindgen_test]
fn constructor_throws_range_error_for_non_finite_count() {
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        match Flock::new(&js(bad), &js(1.0)) {
            Ok(_) => panic!("new Flock({bad}) must throw"),
            Err(error) => assert!(
                error.is_instance_of::<js_sys::RangeError>(),
                "new Flock({bad}) must throw a RangeError, got {error:?}"
            ),
        }
    }
}

#[wasm_bindgen_test]
fn setters_clamp_to_the_documented_range_and_return_the_applied_value() {
    let mut flock = flock(200.0);
    for (name, getter, setter, min, max) in real_params() {
        assert_eq!(
            setter(&mut flock, &js(min - 100.0)).unwrap(),
            min,
            "{name} below min"
        );
        assert_eq!(getter(&flock), min, "{name} getter after clamping to min");

        assert_eq!(
            setter(&mut flock, &js(max + 1e6)).unwrap(),
            max,
            "{name} above max"
        );
        assert_eq!(getter(&flock), max, "{name} getter after clamping to max");

        let inside = min + 0.25 * (max - min);
        assert_eq!(
            setter(&mut flock, &js(inside)).unwrap(),
            inside,
            "{name} in range"
        );
        assert_eq!(getter(&flock), inside, "{name} getter in range");
    }

    assert_eq!(flock.setCount(&js(1.0)).unwrap(), 2.0, "count below min");
    assert_eq!(flock.count(), 2.0);
    assert_eq!(positions(&flock).len(), 3 * 2, "setCount resizes the flock");
    assert_eq!(flock.setCount(&js(321.4)).unwrap(), 321.0, "count rounds");
    assert_eq!(
        positions(&flock).len(),
        3 * 321,
        "setCount resizes the flock"
    );
}

#[wasm_bindgen_test]
fn non_finite_values_throw_range_error_and_change_nothing() {
    let mut flock = flock(100.0);
    for (name, getter, setter, min, max) in real_params() {
        let before = min + 0.5 * (max - min);
        setter(&mut flock, &js(before)).unwrap();
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_range_error(setter(&mut flock, &js(bad)), &format!("set {name}({bad})"));
            assert_eq!(
                getter(&flock),
                before,
                "set {name}({bad}) changed the value"
            );
        }
    }
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert_range_error(flock.setCount(&js(bad)), &format!("setCount({bad})"));
        assert_eq!(flock.count(), 100.0, "setCount({bad}) changed the count");
        assert_eq!(positions(&flock).len(), 300);
    }
}

#[wasm_bindgen_test]
fn range_error_message_names_the_parameter() {
    let mut flock = flock(100.0);
    let error = flock.setCohesion(&js(f64::NAN)).unwrap_err();
    let message = string(&error, "message");
    assert!(
        message.contains("cohesion"),
        "RangeError message should name the parameter: {message}"
    );
}

#[wasm_bindgen_test]
fn positions_are_finite_and_move_with_each_step() {
    let mut flock = flock(500.0);
    let mut previous = positions(&flock);
    for _ in 0..5 {
        flock.step(&js(1.0 / 60.0)).unwrap();
        let next = positions(&flock);
        assert_ne!(
            sorted_xs(&previous),
            sorted_xs(&next),
            "a step must move the boids"
        );
        previous = next;
    }
    // A huge dt is capped and subdivided; nothing may become NaN.
    flock.step(&js(10.0)).unwrap();
    positions(&flock);
    flock.step(&js(0.0)).unwrap();
    positions(&flock);
}

#[wasm_bindgen_test]
fn positions_is_a_copy() {
    let flock = flock(100.0);
    let copy = flock.positions();
    copy.fill(f32::NAN, 0, copy.length());
    // Would panic in positions() if the wasm-side data had been overwritten.
    positions(&flock);
}

#[wasm_bindgen_test]
fn same_seed_gives_the_same_flock_and_rebuild_rescatters() {
    let mut a = flock(300.0);
    let mut b = flock(300.0);
    assert_eq!(positions(&a), positions(&b), "same seed, same start");
    for _ in 0..3 {
        a.step(&js(1.0 / 60.0)).unwrap();
        b.step(&js(1.0 / 60.0)).unwrap();
    }
    assert_eq!(positions(&a), positions(&b), "same seed, same steps");

    let start = positions(&flock(300.0));
    assert_ne!(sorted_xs(&positions(&a)), sorted_xs(&start));
    a.rebuild();
    assert_eq!(
        positions(&a),
        start,
        "rebuild scatters afresh from the seed"
    );
    assert_eq!(a.count(), 300.0, "rebuild keeps the count");
}

#[wasm_bindgen_test]
fn params_lists_the_slider_parameters_with_sane_ranges() {
    let params: Array = Flock::params();
    let find = |name: &str| {
        params
            .iter()
            .find(|spec| get(spec, "name").as_string().as_deref() == Some(name))
            .unwrap_or_else(|| panic!("params() lacks {name}"))
    };
    let count_spec = find("count");
    assert_eq!(
        string(&count_spec, "scale"),
        "log",
        "the count slider is log-scaled"
    );
    let js_flock = JsValue::from(flock(number(&count_spec, "default")));

    for name in SLIDERS {
        let spec = find(name);
        let (min, default, max) = (
            number(&spec, "min"),
            number(&spec, "default"),
            number(&spec, "max"),
        );
        assert!(
            min < default && default < max,
            "{name}: expected min < default < max, got {min} / {default} / {max}"
        );
        let step = number(&spec, "step");
        assert!(step > 0.0 && step < max - min, "{name}: step {step}");
        assert_eq!(
            get(&spec, "slider").as_bool(),
            Some(true),
            "{name} is a slider"
        );
        assert!(!string(&spec, "label").is_empty(), "{name} has a label");
        let scale = string(&spec, "scale");
        assert!(scale == "linear" || scale == "log", "{name}: scale {scale}");

        // The getter/setter names in the table exist on the JS object and work.
        let getter = get(&js_flock, &string(&spec, "getter"))
            .dyn_into::<Function>()
            .unwrap_or_else(|_| panic!("{name}: getter is not a method of Flock"));
        let setter = get(&js_flock, &string(&spec, "setter"))
            .dyn_into::<Function>()
            .unwrap_or_else(|_| panic!("{name}: setter is not a method of Flock"));
        let current = getter.call0(&js_flock).unwrap().as_f64().unwrap();
        assert_eq!(
            current, default,
            "{name}: a fresh flock starts at the default"
        );
        let applied = setter
            .call1(&js_flock, &JsValue::from_f64(max + 1000.0))
            .unwrap()
            .as_f64()
            .unwrap();
        assert_eq!(applied, max, "{name}: JS setter clamps to max");
        let now = getter.call0(&js_flock).unwrap().as_f64().unwrap();
        assert_eq!(now, max, "{name}: JS getter after JS setter");
        setter
            .call1(&js_flock, &JsValue::from_f64(default))
            .expect("setting the default back");
        let thrown = setter
            .call1(&js_flock, &JsValue::from_f64(f64::NAN))
            .expect_err("JS setter must throw on NaN");
        assert!(
            thrown.is_instance_of::<js_sys::RangeError>(),
            "{name}: JS setter throws RangeError on NaN"
        );
    }
}

/// Values of every JavaScript type but number, as a page may pass them.
fn not_numbers() -> Vec<(&'static str, JsValue)> {
    vec![
        ("a string", JsValue::from_str("5")),
        ("true", JsValue::TRUE),
        ("null", JsValue::NULL),
        ("undefined", JsValue::UNDEFINED),
        ("an object", js_sys::Object::new().into()),
        ("an array", Array::of1(&js(5.0)).into()),
        ("a BigInt", js_sys::BigInt::from(10).into()),
        ("a Symbol", JsValue::symbol(Some("junk"))),
    ]
}

fn assert_type_error<T>(result: Result<T, JsValue>, what: &str, names: &[&str]) {
    let Err(error) = result else {
        panic!("{what} must throw");
    };
    assert!(
        error.is_instance_of::<js_sys::TypeError>(),
        "{what} must throw a TypeError, got {error:?}"
    );
    let message = string(&error, "message");
    for name in names {
        assert!(
            message.contains(name),
            "{what}: the message names {name}: {message}"
        );
    }
}

#[wasm_bindgen_test]
fn setters_throw_type_error_for_anything_but_a_number_and_change_nothing() {
    let mut flock = flock(100.0);
    for (name, getter, setter, min, max) in real_params() {
        let before = min + 0.5 * (max - min);
        setter(&mut flock, &js(before)).unwrap();
        let setter_name = format!("Flock.set{}{}", name[..1].to_uppercase(), &name[1..]);
        for (what, junk) in not_numbers() {
            assert_type_error(
                setter(&mut flock, &junk),
                &format!("{setter_name}({what})"),
                &[&setter_name, "value", "must be a number"],
            );
            assert_eq!(getter(&flock), before, "{setter_name}({what}) changed it");
        }
    }
    for (what, junk) in not_numbers() {
        assert_type_error(flock.setCount(&junk), what, &["Flock.setCount"]);
        assert_type_error(flock.step(&junk), what, &["Flock.step", "dt"]);
        assert_type_error(flock.leader_path(&junk), what, &["Flock.leaderPath"]);
    }
    assert_eq!(flock.count(), 100.0);
}

#[wasm_bindgen_test]
fn the_constructor_checks_its_arguments() {
    for (what, junk) in not_numbers() {
        assert_type_error(
            Flock::new(&junk, &js(1.0)),
            &format!("new Flock({what})"),
            &["new Flock", "count"],
        );
        if what != "null" && what != "undefined" {
            assert_type_error(
                Flock::new(&js(60.0), &junk),
                &format!("new Flock(60, {what})"),
                &["new Flock", "seed"],
            );
        }
    }
    // A null seed draws a fresh one (whole, as every seed is): two such flocks differ.
    let [a, b] =
        [0, 1].map(|_| Flock::new(&js(60.0), &JsValue::NULL).expect("a null seed draws one"));
    assert_eq!(a.seed().fract(), 0.0, "{}", a.seed());
    assert_ne!(a.seed(), b.seed(), "two null seeds drew the same seed");
    assert_ne!(a.positions().to_vec(), b.positions().to_vec());
}

#[wasm_bindgen_test]
fn apply_preset_given_a_non_string_throws_type_error_and_changes_nothing() {
    let mut flock = flock(100.0);
    let before = flock.cohesion();
    for (what, junk) in not_numbers()
        .into_iter()
        .filter(|(what, _)| *what != "a string")
        .chain([("a number", js(123.0)), ("NaN", js(f64::NAN))])
    {
        assert_type_error(
            flock.apply_preset(&junk),
            &format!("applyPreset({what})"),
            &["Flock.applyPreset", "name", "must be a string"],
        );
    }
    assert_eq!(flock.cohesion(), before);
    let unknown = flock.apply_preset(&"nope".into()).unwrap_err();
    assert!(unknown.is_instance_of::<js_sys::RangeError>());
    let long = flock.apply_preset(&"m".repeat(100_000).into()).unwrap_err();
    assert!(long.is_instance_of::<js_sys::RangeError>());
    flock.apply_preset(&"murmuration".into()).unwrap();
}

#[wasm_bindgen_test]
fn obstacles_and_the_pointer_check_their_arguments() {
    let mut flock = flock(100.0);
    let n = js(5.0);
    for (what, junk) in not_numbers() {
        assert_type_error(
            flock.add_obstacle(&n, &n, &junk, &n),
            &format!("addObstacle(5, 5, {what}, 5)"),
            &["Flock.addObstacle", "z"],
        );
        assert_type_error(
            flock.set_pointer(&junk, &n, &n, &JsValue::FALSE),
            &format!("setPointer({what}, 5, 5, false)"),
            &["Flock.setPointer", "x"],
        );
    }
    assert_type_error(
        flock.set_pointer(&n, &n, &n, &"true".into()),
        "setPointer(5, 5, 5, \"true\")",
        &["Flock.setPointer", "repel", "true, false, 1 or 0"],
    );
    assert_type_error(
        flock.set_wrap(&"1".into()),
        "setWrap(\"1\")",
        &["Flock.setWrap"],
    );
    // One rule for on/off (issue 41): 1 and 0 are on and off, another number a RangeError.
    flock.set_wrap(&js(1.0)).unwrap();
    assert!(flock.wrap());
    flock.set_wrap(&JsValue::FALSE).unwrap();
    let two = flock.set_wrap(&js(2.0)).unwrap_err();
    assert!(two.is_instance_of::<js_sys::RangeError>());
    assert!(!flock.wrap(), "a refused value changes nothing");
    assert!(flock.obstacles().length() == 0, "nothing was added");
    let nan = flock.add_obstacle(&n, &n, &n, &js(f64::NAN)).unwrap_err();
    assert!(nan.is_instance_of::<js_sys::RangeError>());
    assert!(string(&nan, "message").contains("Flock.addObstacle"));
    assert!(
        flock.add_obstacle(&n, &n, &n, &n).unwrap(),
        "an obstacle is added"
    );
}

#[wasm_bindgen(
    inline_js = "export function call_and_catch(f) { try { f(); return null; } catch (error) { return error; } }"
)]
extern "C" {
    fn call_and_catch(f: &Function) -> JsValue;
}

#[wasm_bindgen_test]
fn a_panic_traps_and_take_panic_gives_its_message_once() {
    // Our hook from now on, for the tests after this one too: after the trap std counts this
    // thread as panicking, and `set_hook` would refuse to put the harness's back.
    boids::web::keep_panics();
    let _ = boids::web::take_panic();
    let panicking = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(|| {
        panic!("a test panic, on purpose");
    });
    let error = call_and_catch(panicking.as_ref().unchecked_ref());
    // The closure was left mid-call by the trap: never call or drop it again.
    panicking.forget();
    assert!(
        error.is_instance_of::<js_sys::WebAssembly::RuntimeError>(),
        "a panic traps: {error:?}"
    );
    let message = boids::web::take_panic().expect("the panic's message is kept");
    assert!(
        message.contains("a test panic, on purpose"),
        "the kept message: {message}"
    );
    assert_eq!(boids::web::take_panic(), None, "taken once");
}

#[wasm_bindgen_test]
fn instruments_read_ids_one_boid_and_the_whole_flock() {
    let mut flock = flock(300.0);
    for _ in 0..30 {
        flock.step(&js(1.0 / 60.0)).unwrap();
    }
    let ids = flock.ids().to_vec();
    assert_eq!(ids.len(), 300);
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..300).collect::<Vec<u32>>(), "ids 0..300");
    // One boid up close: where it is (the same as positions() at its index), whom it heeds.
    let seen = flock.inspect(&js(f64::from(ids[7]))).unwrap();
    assert_eq!(number(&seen, "id"), f64::from(ids[7]));
    let position = Float32Array::from(get(&seen, "position")).to_vec();
    assert_eq!(position, positions(&flock)[21..24].to_vec());
    // The object holds what the simulation's own inspection says, field by field (a
    // binding that dropped the neighbours or zeroed a term would differ).
    let inner = flock.sim().inspect(ids[7]).expect("a known id");
    let heeded = js_sys::Uint32Array::from(get(&seen, "heeded")).to_vec();
    assert!(
        !heeded.is_empty(),
        "after 30 steps boid {} heeds someone",
        ids[7]
    );
    assert_eq!(heeded, inner.heeded);
    let too_close = js_sys::Uint32Array::from(get(&seen, "tooClose")).to_vec();
    assert_eq!(too_close, inner.too_close);
    assert_eq!(number(&seen, "speed"), f64::from(inner.velocity.length()));
    let terms = get(&seen, "terms");
    let vector = |value: JsValue| Float32Array::from(value).to_vec();
    let t = &inner.terms;
    assert_ne!(t.total, glam::Vec3::ZERO);
    assert_eq!(vector(get(&terms, "total")), t.total.to_array());
    assert_eq!(vector(get(&terms, "cruise")), t.cruise.to_array());
    for (name, raw, weighted) in [
        ("separation", t.steering.separation, t.separation),
        ("alignment", t.steering.alignment, t.alignment),
        ("cohesion", t.steering.cohesion, t.cohesion),
    ] {
        let rule = get(&terms, name);
        assert_eq!(vector(get(&rule, "raw")), raw.to_array(), "{name}");
        assert_eq!(
            vector(get(&rule, "weighted")),
            weighted.to_array(),
            "{name}"
        );
    }
    // Unknown ids are null; an id that is not a number is a TypeError.
    for unknown in [300.0, -1.0, 0.5, f64::NAN, 1e12] {
        assert!(flock.inspect(&js(unknown)).unwrap().is_null(), "{unknown}");
    }
    assert_type_error(
        flock.inspect(&"7".into()),
        "inspect",
        &["Flock.inspect", "id"],
    );
    // The whole flock.
    let metrics: JsValue = flock.metrics().into();
    let inner = flock.sim().metrics();
    assert_eq!(
        number(&metrics, "polarization"),
        f64::from(inner.polarization)
    );
    assert_eq!(number(&metrics, "milling"), f64::from(inner.milling));
    assert_eq!(
        number(&metrics, "meanNearest"),
        f64::from(inner.mean_nearest)
    );
    assert_eq!(number(&metrics, "count"), 300.0);
    assert_eq!(number(&metrics, "groups"), inner.groups as f64);
    assert!((1.0..=300.0).contains(&number(&metrics, "groups")));
    assert_eq!(number(&metrics, "meanNeighbours"), flock.mean_neighbours());
    assert!(get(&metrics, "species").is_undefined());
    flock.setSpeciesCount(&js(3.0)).unwrap();
    let per = Array::from(&get(&flock.metrics().into(), "species"));
    assert_eq!(per.length(), 3);
}

#[wasm_bindgen_test]
fn a_survey_gives_what_metrics_gave_when_it_began_a_piece_a_call() {
    let mut flock = flock(2000.0);
    for _ in 0..30 {
        flock.step(&js(1.0 / 60.0)).unwrap();
    }
    let not_under_way = |result: Result<f64, JsValue>, what: &str| {
        let error = result.expect_err(&format!("{what} must throw"));
        assert!(
            error.is_instance_of::<js_sys::RangeError>(),
            "{what}: {error:?}"
        );
        let message = string(&error, "message");
        assert!(message.contains("is not under way"), "{what}: {message}");
    };
    not_under_way(flock.advance_survey(&js(1.0)).map(|_| 0.0), "none begun");
    not_under_way(flock.finish_survey(&js(1.0)).map(|_| 0.0), "none begun");
    let text = |value: JsValue| {
        js_sys::JSON::stringify(&value)
            .map(String::from)
            .unwrap_or_default()
    };
    let before = text(flock.metrics().into());
    let first = flock.begin_survey(&js(8.0)).unwrap();
    let mut calls = 1;
    let metrics = loop {
        // The flock flies on between pieces, as it does between frames.
        if let Some(metrics) = flock.advance_survey(&js(f64::from(first))).unwrap() {
            break metrics;
        }
        flock.step(&js(1.0 / 60.0)).unwrap();
        calls += 1;
        assert!(calls < 1000, "a survey that never ends");
    };
    assert!(
        (4..=16).contains(&calls),
        "spread over about 8 calls: {calls}"
    );
    assert_eq!(text(metrics.into()), before);
    assert_ne!(text(flock.metrics().into()), before, "the flock moved on");
    not_under_way(
        flock.advance_survey(&js(f64::from(first))).map(|_| 0.0),
        "done",
    );
    // Finished at once, the same as metrics() now; with species, each one's too.
    flock.setSpeciesCount(&js(2.0)).unwrap();
    let now = text(flock.metrics().into());
    let second = flock.begin_survey(&js(30.0)).unwrap();
    assert_ne!(second, first);
    assert!(
        flock
            .advance_survey(&js(f64::from(second)))
            .unwrap()
            .is_none(),
        "one call of 30"
    );
    // One at a time: a third survey drops the second, whose caller is told so.
    flock.step(&js(1.0 / 60.0)).unwrap();
    let later = text(flock.metrics().into());
    let third = flock.begin_survey(&js(30.0)).unwrap();
    not_under_way(
        flock.advance_survey(&js(f64::from(second))).map(|_| 0.0),
        "dropped",
    );
    let finished = flock.finish_survey(&js(f64::from(third))).unwrap();
    assert_eq!(text(finished.into()), later);
    assert_ne!(later, now);
    assert!(later.contains("\"species\""), "{later}");
    // Wrong calls: a TypeError or a RangeError, and no survey begun.
    for junk in [JsValue::from("5"), JsValue::UNDEFINED, JsValue::NULL] {
        assert_type_error(
            flock.begin_survey(&junk),
            "beginSurvey",
            &["Flock.beginSurvey", "calls"],
        );
        assert_type_error(
            flock.advance_survey(&junk),
            "advanceSurvey",
            &["Flock.advanceSurvey", "survey"],
        );
    }
    for calls in [0.0, 0.5, 2.5, 10_001.0, f64::NAN, f64::INFINITY, -3.0] {
        let result = flock.begin_survey(&js(calls)).map(f64::from);
        assert_range_error(result, &format!("beginSurvey({calls})"));
    }
    not_under_way(
        flock
            .finish_survey(&js(f64::from(third) + 1.0))
            .map(|_| 0.0),
        "refused: none begun",
    );
}

#[wasm_bindgen_test]
fn a_snapshot_continues_the_flock_and_anything_else_is_refused_with_the_reason() {
    const METHOD: &str = "Flock.fromSnapshot";
    let mut original = flock(300.0);
    original.setPredators(&js(2.0)).unwrap();
    original.setNoise(&js(0.5)).unwrap();
    for _ in 0..30 {
        original.step(&js(1.0 / 60.0)).unwrap();
    }
    let bytes = original.snapshot();
    let Ok(mut copy) = Flock::from_snapshot(&bytes.clone().into()) else {
        panic!("{METHOD} reads the snapshot it was given");
    };
    for _ in 0..60 {
        original.step(&js(1.0 / 60.0)).unwrap();
        copy.step(&js(1.0 / 60.0)).unwrap();
    }
    assert_eq!(positions(&copy), positions(&original));
    assert_eq!(copy.snapshot().to_vec(), original.snapshot().to_vec());
    let refused = |bytes: js_sys::Uint8Array, why: &str| {
        let Err(error) = Flock::from_snapshot(&bytes.into()) else {
            panic!("{METHOD} refuses bytes that are {why}");
        };
        assert!(
            error.is_instance_of::<js_sys::RangeError>(),
            "{why}: {error:?}"
        );
        let message = string(&error, "message");
        assert!(
            message.starts_with(METHOD) && message.contains(why),
            "{message}"
        );
    };
    refused(bytes.subarray(0, bytes.length() - 1), "truncated");
    let altered = js_sys::Uint8Array::new(&bytes);
    altered.set_index(100, altered.get_index(100) ^ 1);
    refused(altered, "altered");
    let other = js_sys::Uint8Array::new(&bytes);
    other.set_index(4, 99);
    refused(other, "version 99");
    let names = [METHOD, "bytes", "Uint8Array"];
    for (what, value) in not_numbers() {
        assert_type_error(Flock::from_snapshot(&value), what, &names);
    }
    let floats = Float32Array::new_with_length(8);
    assert_type_error(
        Flock::from_snapshot(&floats.into()),
        "a Float32Array",
        &names,
    );
}
