// The scene card's click-only flows, one chunk loaded after the list's first paint (useCardActions).
export { checkInFlow } from "./useCheckIn";
export { addToScheduleFlow } from "./useAddToSchedule";
export { eventActions } from "./useEventActions";
export { toggleFavoriteFlow } from "./useFavoriteToggle";
