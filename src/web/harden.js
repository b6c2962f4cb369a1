// Part of the wasm module's bindings: src/web/mod.rs calls `harden` once, when the module
// starts, with a Flock and a View made for the purpose (a class is reached through an
// instance). Rust checks every other argument (src/web/args.rs); these are the checks that
// wasm-bindgen's generated code makes before Rust is reached, with errors that say less:
//
// - Its `free()` zeroes the object's pointer, and any later use throws a plain
//   `Error: null pointer passed to rust`. After the hardened `free()`, reading the pointer,
//   which every method of the object and every method given the object does first, throws
//   a `TypeError` that says what happened; a second `free()` does nothing.
// - A method that takes a Flock throws `Error: expected instance of Flock` for anything else;
//   here a `TypeError` that names the method.

/** How the messages name a value that is not what was expected (as src/web/args.rs does). */
function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined (is an argument missing?)';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Replaces `prototype[key]` (a method), keeping its attributes. */
function replace(prototype, key, method) {
  Object.defineProperty(prototype, key, { ...Object.getOwnPropertyDescriptor(prototype, key), value: method });
}

/** Hardens the `free()` of `instance`'s class (named `className` in messages), then frees `instance`. */
function hardenFree(instance, className) {
  const prototype = Object.getPrototypeOf(instance);
  const free = prototype.free;
  const freed = () => {
    throw new TypeError(`the ${className} was freed (free() was called) and cannot be used any more`);
  };
  const hardened = {
    free() {
      if (Object.getOwnPropertyDescriptor(Object(this), '__wbg_ptr')?.get === freed) return;
      free.call(this);
      Object.defineProperty(this, '__wbg_ptr', { get: freed, configurable: true });
    },
  }.free;
  for (const key of ['free', Symbol.dispose]) {
    if (key && Object.getOwnPropertyDescriptor(prototype, key)?.value === free) replace(prototype, key, hardened);
  }
  instance.free();
}

/** `flock` and `view`: the placeholders; `takeAFlock`: the View methods whose first argument is a Flock, separated by spaces. */
export function harden(flock, view, takeAFlock) {
  const Flock = flock.constructor;
  const prototype = Object.getPrototypeOf(view);
  for (const name of takeAFlock.split(' ')) {
    const method = prototype[name];
    const checked = {
      [name](first, ...rest) {
        if (!(first instanceof Flock)) throw new TypeError(`View.${name}: flock must be a Flock, got ${describe(first)}`);
        return method.call(this, first, ...rest);
      },
    }[name];
    Object.defineProperty(checked, 'length', { value: method.length });
    replace(prototype, name, checked);
  }
  hardenFree(flock, 'Flock');
  hardenFree(view, 'View');
}
