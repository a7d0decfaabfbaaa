/** External facility request, set B (spec 02 section 4), shared by the machines that use it. */
export const SET_B = {
  draft: 0,
  newRequest: 1,
  pendingPayment: 2,
  feesPaid: 3,
  paymentExpired: 4,
  issued: 5,
  addProductsInProgress: 7,
  productsUpdated: 8,
  inProgress: 1007,
  completed: 1008,
} as const;
