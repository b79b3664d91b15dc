// The openai library as a bundle of its own (scripts/build.mjs builds it beside the app's bundles): loaded by
// model-client.ts when a model is first asked, so users who never set one up do not carry it (about 8 MB of
// idle memory when it was inside the main bundle).
export * from 'openai';
