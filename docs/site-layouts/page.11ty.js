// Every page's frame: scripts/docs/layout.mjs (kept beside the generator so the layout and the build change together).
import { renderPage } from '../../scripts/docs/layout.mjs';

export default function (data) {
  return renderPage(data);
}
