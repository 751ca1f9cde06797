/** Attribute the islands bundle sets on `<html>` once it has wired the page (tests wait for it). */
export const ISLANDS_READY_ATTRIBUTE = "data-islands";
