// The content document that build.rs writes (content/ read, checked and rendered); see src/content.ts.
declare module '@content' {
  const content: import('./content').Content;
  export default content;
}
