export { type AirdropLibraryFiles, seedAirdropLibrary } from "./seed.ts";
export { HOME_FAQ_KEY } from "./service.ts";
export { indexAirdrop, saveFaq } from "./writes.ts";
