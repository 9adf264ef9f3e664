import { createFileRoute } from '@tanstack/react-router';
import { LoginCallbackPage } from '@/features/auth/components/login-callback-page';

export const Route = createFileRoute('/login/$provider/callback')({
  component: LoginCallbackPage,
});
