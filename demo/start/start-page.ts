/** The start page: only the fixture list is live; the rest is plain HTML. */
import './fixtures-view.js';
