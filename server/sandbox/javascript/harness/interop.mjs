/**
 * GUEST CODE (see intrinsics.mjs): self-contained, uses only `I`.
 *
 * The interop helpers the transpiler calls with importHelpers ("tslib"), made from
 * the captured intrinsics so that an artifact that patched Object.defineProperty & co. cannot
 * change what an import hands the tests.
 */
export function createInterop(I) {
  "use strict";
  const isObject = (value) => (typeof value === "object" && value !== null) || typeof value === "function";
  // Own properties only: an artifact that put an __esModule or default getter on Object.prototype
  // must not turn `import assert from "node:assert"` into its own object.
  const isEsModule = (mod) => isObject(mod) && I.hasOwn(mod, "__esModule") && !!mod.__esModule;

  function createBinding(target, source, key, alias) {
    I.defineProperty(target, alias === undefined ? key : alias, { __proto__: null, enumerable: true, configurable: true, get: () => source[key] });
  }

  function importStar(mod) {
    if (isEsModule(mod)) return mod;
    const result = {};
    if (isObject(mod)) {
      const keys = I.ownKeys(mod);
      for (let i = 0; i < keys.length; i++) {
        if (typeof keys[i] === "string" && keys[i] !== "default") createBinding(result, mod, keys[i]);
      }
    }
    I.defineProperty(result, "default", { __proto__: null, value: mod, enumerable: true, writable: true, configurable: true });
    return result;
  }

  return I.freeze({
    __proto__: null,
    __importDefault: (mod) => (isEsModule(mod) ? mod : { __proto__: null, default: mod }),
    __importStar: importStar,
    __createBinding: createBinding,
    __setModuleDefault: (target, value) => I.defineProperty(target, "default", { __proto__: null, value, enumerable: true, writable: true, configurable: true }),
    __exportStar: (source, target) => {
      if (!isObject(source)) return;
      const keys = I.ownKeys(source);
      for (let i = 0; i < keys.length; i++) {
        if (typeof keys[i] === "string" && keys[i] !== "default" && !I.hasOwn(target, keys[i])) createBinding(target, source, keys[i]);
      }
    },
  });
}
