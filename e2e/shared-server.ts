/**
 * The shared e2e server's DATA_DIR (playwright.config.ts starts it). Without SMTP_URL it writes each mail there as an
 * .eml file under mail/, with links to its own address (APP_URL defaults to http://localhost:PORT, the tests'
 * baseURL). Every spec mails addresses of its own (uniqueEmail), so a spec reads only its own mail.
 */
export const E2E_DATA_DIR = '.e2e-data';
