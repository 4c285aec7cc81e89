import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

const frameworkImports = [
  { group: ["next", "next/*"], message: "server/engine is framework-free: no Next.js." },
  { group: ["react", "react/*", "react-dom", "react-dom/*"], message: "server/engine is framework-free: no React." },
  { group: ["@prisma/*", "prisma", "prisma/*", "**/prisma/generated/**"], message: "server/engine is framework-free: persistence lives in server/persistence." },
  { group: ["@trpc/*"], message: "server/engine is framework-free: transport lives in server/api." },
  { group: ["@/server/*", "@/app/*", "@/components/*", "../../*"], message: "server/engine may not import the rest of the application." },
];

export default tseslint.config(
  { ignores: ["node_modules/", ".next/", "prisma/generated/", "data/", "test-results/", "playwright-report/", "next-env.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    files: ["**/*.mjs", "**/*.js"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: { ...globals.node } },
  },
  {
    files: ["**/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ["server/engine/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: frameworkImports }],
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "The engine receives configuration; only server/env.ts reads the environment." }],
    },
  },
);
