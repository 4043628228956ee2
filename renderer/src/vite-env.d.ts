// Vite's `?url` imports: the build copies the file into the output and gives its relative URL.
declare module "*?url" {
  const url: string;
  export default url;
}
