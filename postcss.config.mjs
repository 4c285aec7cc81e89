// Tailwind v4 needs no config file: it scans the project's sources for class names.
export default {
  plugins: { "@tailwindcss/postcss": {} },
};
