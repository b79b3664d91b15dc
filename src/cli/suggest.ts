// The CLI's suggestions ("did you mean --config?") use the same matching as config warnings.
export { closest, editDistance } from '../shared/suggest';
