// Nothing to configure for pay-checkout: the wrapper carries its own "use client", the handler needs no redis.
export default {};
