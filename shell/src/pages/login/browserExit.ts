// Leaving the app for another site (DingTalk's sign-in page, a client's redirect address): an
// object of its own so that tests can watch it.
export const browserExit = {
  leaveFor(url: string): void {
    window.location.assign(url);
  },
};
