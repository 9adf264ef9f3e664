import { createFileRoute } from '@tanstack/react-router';
import { TodayPage } from '@/features/your-day/components/today-page';

export const Route = createFileRoute('/_authenticated/today')({
  component: TodayPage,
});
