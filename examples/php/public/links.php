<?php
// GET /links.php?hash=HASH, called by `pay-checkout serve` (PAY_CHECKOUT_LINKS_URL=…/links.php?hash={hash}):
// the cart named HASH as the checkout's link record, or 404. Signed: the text is "GET <path and query>".
declare(strict_types=1);
require __DIR__ . '/../shop.php';

if ($_SERVER['REQUEST_METHOD'] !== 'GET') {
    header('Allow: GET');
    answer_json(405, ['error' => 'GET only']);
    exit;
}
// REQUEST_URI is the path and query exactly as serve sent them. Behind a proxy that rewrites the path, sign and
// check the same text: see README.md.
$signed = 'GET ' . $_SERVER['REQUEST_URI'];
if (!signature_is_valid($_SERVER['HTTP_PAY_CHECKOUT_SIGNATURE'] ?? '', $signed, app_secrets())) {
    answer_json(401, ['error' => 'bad or missing Pay-Checkout-Signature']);
    exit;
}
$cart = is_string($_GET['hash'] ?? null) ? find_cart($_GET['hash']) : null;
if (!$cart) {
    answer_json(404, ['error' => 'no such cart']);
    exit;
}
answer_json(200, link_record($cart));
