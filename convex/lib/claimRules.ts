/** The limits of a mic claim's review, shared by the admin's form and the server. */

/** The admin's optional reason on a decision, which the claimant sees. */
export const MAX_REVIEW_REASON_LENGTH = 500;
