/** The archive screens, as the app's routes import them. */
export { BoardArchivePage } from './BoardArchivePage';
export { ArchivedBoardsPage } from './ArchivedBoardsPage';
