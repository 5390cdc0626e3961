import effect from "@effect/eslint-plugin"
import js from "@eslint/js"
import tseslint from "typescript-eslint"

export default tseslint.config(
  { ignores: ["**/build/**", "**/node_modules/**", "**/.osiris/**", "**/*.md", "**/fixtures/**", "scratch/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...effect.configs.dprint,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: "module" },
    rules: {
      "no-fallthrough": "off",
      "no-irregular-whitespace": "off",
      "no-control-regex": "off",
      "object-shorthand": "error",
      "prefer-const": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-namespace": "off",
      "@typescript-eslint/no-empty-object-type": "off",
      "@typescript-eslint/array-type": ["error", { default: "generic", readonly: "generic" }],
      "@effect/dprint": ["error", {
        config: {
          indentWidth: 2,
          lineWidth: 120,
          semiColons: "asi",
          quoteStyle: "alwaysDouble",
          trailingCommas: "never",
          operatorPosition: "maintain",
          "arrowFunction.useParentheses": "force"
        }
      }]
    }
  }
)
