/**
 * Room a row of primary actions (or the page's last line) keeps free at its inline end, where the floating chat button
 * sits (24 px from the edge, 64 px wide; ChatAssistant.tsx), so the button never covers it at any width or scroll
 * position.
 */
export const CHAT_CLEARANCE = '6.5rem';
