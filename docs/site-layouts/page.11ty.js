// Every page's frame: docs/tooling/layout.mjs (kept beside the generator so the layout and the build change together).
import { renderPage } from '../tooling/layout.mjs';

export default function (data) {
  return renderPage(data);
}
