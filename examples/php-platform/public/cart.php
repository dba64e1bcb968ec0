<?php
// One order and its checkout: the order's link, made by the shop's one call to serve, in the documented embed.
declare(strict_types=1);
require __DIR__ . '/../shop.php';

$order = is_string($_GET['order'] ?? null) ? find_order($_GET['order']) : null;
$path = '/cart.php?order=' . rawurlencode($order['reference'] ?? '');
if (!$order) {
    http_response_code(404);
    page_start(t('cart'));
    echo '<h1>', e(t('no_cart')), '</h1><p><a href="', e(here('/')), '">', e(t('back')), '</a></p>';
    page_end('/');
    exit;
}

$linked = $order['paid_at'] ? $order : ensure_link($order);
$reserve = 'pay-checkout{display:block;min-block-size:38rem}';
page_start(t('cart'), $reserve);
echo '<h1>', e(t('your_cart')), '</h1><ul>';
foreach (json_decode($order['items'], true) as $item) {
    $product = PRODUCTS[$item['product']];
    echo '<li>', e($item['quantity']), ' × ', e($product[lang()]), ': ', e(pesos($item['quantity'] * $product['price'])), '</li>';
}
echo '</ul><p>', e(t('total')), ': <strong>', e(pesos((int) $order['amount'])), '</strong></p>';

if ($order['paid_at']) {
    echo '<p id="cart-status" data-paid="true">', e(t('paid')), '</p>';
} elseif (is_string($linked)) {
    // serve refused the shop (not connected, disconnected) or did not answer: say so, and no checkout.
    http_response_code($linked === 'not_selling' ? 409 : 503);
    echo '<p id="cart-status" data-paid="false" role="alert">', e(t($linked)), '</p>';
} else {
    echo '<p id="cart-status" data-paid="false">', e(t('pending')), '</p>';
    // The documented embed: the script from serve, the reserve line, the link's hash. No secret on the page.
    echo '<script type="module" src="', e(serve_url()), '/pay-checkout.js"></script>',
        '<style>', $reserve, '</style>',
        '<pay-checkout link="', e($linked['link_hash']), '"></pay-checkout>';
}
page_end($path);
