// Writes that only administrators make.
export { setUserDisabled } from '../users/repository';
