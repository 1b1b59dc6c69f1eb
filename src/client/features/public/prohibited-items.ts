/** Spec section 1: never carried, stated in the FAQ and the terms. */
export const PROHIBITED_ITEMS = ['alcohol', 'tobacco', 'prescription medications', 'weapons', 'anything illegal'];
