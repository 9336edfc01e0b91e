import type { MapOffer } from '../generated/MapOffer';

export const OFFERS: MapOffer[] = [
  {
    id: 101,
    title: 'Marseille, hôtel du Vieux-Port 4*',
    image: '/img/travel/101.jpg',
    href: '/voyages/101-marseille',
    lat: 43.2965,
    lng: 5.3698,
    price: { value: '399 €', unit: 'par personne' },
    benefit: 'Petit-déjeuner offert',
  },
  {
    id: 102,
    title: 'Nice, résidence Promenade',
    image: '/img/travel/102.jpg',
    href: '/voyages/102-nice',
    lat: 43.7102,
    lng: 7.262,
    price: { value: '549 €', unit: 'par personne' },
  },
  {
    id: 103,
    title: 'Lisbonne, palais de l’Alfama',
    image: '/img/travel/103.jpg',
    href: '/voyages/103-lisbonne',
    lat: 38.7223,
    lng: -9.1393,
    price: { value: '689 €', unit: 'par chambre' },
    benefit: '-40 %',
  },
];
