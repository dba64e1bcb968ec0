import type { RequestHandler } from './$types';
import { checkout } from '$lib/checkout';

export const GET: RequestHandler = ({ request }) => checkout(request);
export const POST: RequestHandler = ({ request }) => checkout(request);
