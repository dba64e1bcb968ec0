<?php
// The shop owner's page: registers the shop with the platform's serve once, then "Conectar" opens connect_url,
// the payment service's sign-up for this platform, which tells serve the shop's merchant key. Behind a password.
declare(strict_types=1);
require __DIR__ . '/../shop.php';

require_admin();
$error = null;
if ($_SERVER['REQUEST_METHOD'] === 'POST' && saved('api_key') === null) {
    $error = register_store();
    if ($error === null) {
        header('Location: ' . here('/settings.php'), true, 303);
        exit;
    }
}

page_start(t('settings'));
echo '<h1>', e(t('settings')), '</h1>';
if ($error !== null) echo '<p role="alert">', e(t('register_failed')), ': ', e($error), '</p>';
if (saved('api_key') === null) {
    echo '<p>', e(t('register_intro')), '</p>',
        '<form method="post" action="', e(here('/settings.php')), '"><button type="submit">', e(t('register')), '</button></form>';
} else {
    $status = store_status();
    $label = match ($status) {
        'pending' => t('status_pending'),
        'connected' => t('status_connected'),
        'disconnected' => t('status_disconnected'),
        default => t('status_unknown'),
    };
    echo '<p>', e(t('registered')), ': <code id="store-id">', e(saved('store_id') ?? ''), '</code></p>',
        '<p>', e(t('status')), ': <strong id="store-status" data-status="', e($status ?? 'unknown'), '">', e($label), '</strong></p>';
    $connect = saved('connect_url') ?? '';
    if ($status !== 'connected' && preg_match('#^https?://#', $connect)) {
        echo '<p>', e(t('connect_intro')), '</p><p><a id="connect" href="', e($connect), '">', e(t('connect')), '</a></p>';
    }
}
page_end('/settings.php');
