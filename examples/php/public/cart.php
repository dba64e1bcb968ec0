<?php
// One cart and its checkout: the documented embed, pointing at pay-checkout serve, with the cart's hash as the link.
declare(strict_types=1);
require __DIR__ . '/../shop.php';

$cart = is_string($_GET['hash'] ?? null) ? find_cart($_GET['hash']) : null;
if (!$cart) {
    http_response_code(404);
    page_start('Carrito');
    echo '<h1>Ese carrito no existe</h1><p><a href="/">Volver a la tienda</a></p>';
    page_end();
    exit;
}

$serve = rtrim(setting('PAY_CHECKOUT_SERVE_URL'), '/');
$reserve = 'pay-checkout{display:block;min-block-size:38rem}';
page_start('Carrito', $reserve);
echo '<h1>Tu carrito</h1><ul>';
foreach (json_decode($cart['items'], true) as $item) {
    $product = PRODUCTS[$item['product']];
    echo '<li>', e($item['quantity']), ' × ', e($product['name']), ': ', e(pesos($item['quantity'] * $product['price'])), '</li>';
}
echo '</ul><p>Total: <strong>', e(pesos((int) $cart['amount'])), '</strong></p>';

if ($cart['paid_at']) {
    echo '<p id="cart-status" data-paid="true">Pagado. Gracias por tu compra.</p>';
} else {
    echo '<p id="cart-status" data-paid="false">Pendiente de pago.</p>';
    // The documented embed: the script from serve (which tells the element its API is beside it), the reserve line,
    // the cart's hash. No secret on the page.
    echo '<script type="module" src="', e($serve), '/pay-checkout.js"></script>',
        '<style>', $reserve, '</style>',
        '<pay-checkout link="', e($cart['hash']), '"></pay-checkout>';
}
page_end();
