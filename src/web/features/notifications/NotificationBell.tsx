/** The bell in the header: unread count and the paged list. */
export function NotificationBell() {
  return null;
}
