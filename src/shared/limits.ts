/** Business limits from the product specification (section 9). One source for forms, routes and CHECK constraints. */
export const LIMITS = {
  emailMax: 255,
  passwordMin: 12,
  fullNameMax: 100,
  locationMax: 500,
  availableSpaceMax: 200,
  notesMax: 1000,
  titleMax: 200,
  descriptionMax: 2000,
  minimumAge: 18,
} as const;
