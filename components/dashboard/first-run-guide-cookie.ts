/**
 * The browser's choice to hide the overview's first-run guide, read by the page on the server and
 * written by the guide's Hide button. Only a preference: progress itself comes from the database.
 */
export const FIRST_RUN_GUIDE_COOKIE = "dualstate-first-run-guide";
export const FIRST_RUN_GUIDE_HIDDEN = "hidden";
