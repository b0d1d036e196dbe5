// Svelte compiler options; the defaults serve (TypeScript in components is handled by the Vite plugin).
export default {};
