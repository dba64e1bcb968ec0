<?php
// GET /links.php?hash=HASH, called by `pay-checkout serve` (PAY_CHECKOUT_LINKS_URL=…/links.php?hash={hash}):
// the cart named HASH as the checkout's link record, or 404. Signed: the text is "GET <path and query>".
declare(strict_types=1);
require __DIR__ . '/../shop.php';

only_method('GET');
// REQUEST_URI is the path and query exactly as serve sent them. Behind a proxy that rewrites the path, sign and
// check the same text: see README.md.
require_signature('GET ' . $_SERVER['REQUEST_URI']);
$cart = is_string($_GET['hash'] ?? null) ? find_cart($_GET['hash']) : null;
if (!$cart) {
    answer_json(404, ['error' => 'no such cart']);
    exit;
}
answer_json(200, link_record($cart));
